import type { Config } from '../config/config-schema.js';
import { formatTarget } from '../events/target.js';
import type { Store } from '../store/key-value-namespace.js';
import { jobsFromConfig, syncConfigJobs } from './config-jobs.js';
import { nextRunOf } from './create-scheduler-port.js';
import { createJobStore, type StoredJob } from './job-store.js';

/** One row of `npm run cron -- list`. */
export type JobRow = {
  readonly id: string;
  readonly schedule: string;
  readonly timezone: string;
  readonly target: string;
  readonly source: StoredJob['source'];
  readonly nextRun: string;
  readonly lastStatus: string;
};

/** The jobs as the scheduler would run them now (config merged over the store, nothing written), as rows. */
export async function listJobRows(input: { readonly config: Config; readonly store: Store; readonly now: Date }): Promise<readonly JobRow[]> {
  const stored = await createJobStore(input.store).all();
  const { jobs } = syncConfigJobs(stored, jobsFromConfig(input.config, { now: input.now }).jobs);
  return jobs.map(toJobRow);
}

/** A job as a row: next run, and the last run's status with whether its answer was delivered (or why not). Pure apart from the clock for cron. */
export function toJobRow(job: StoredJob): JobRow {
  return {
    id: job.id,
    schedule: job.schedule,
    timezone: job.timezone,
    target: formatTarget(job.target),
    source: job.source,
    nextRun: job.paused !== undefined ? `paused by ${job.paused.by}` : (nextRunOf(job)?.toISOString() ?? (job.done ? 'done' : 'never')),
    lastStatus: describeLastRun(job),
  };
}

function describeLastRun(job: StoredJob): string {
  const run = job.lastRun;
  if (run === undefined) return 'never ran';
  const when = run.startedAt;
  switch (run.status) {
    case 'running':
      return `running since ${when}`;
    case 'skipped':
      return `skipped at ${when}: ${run.error ?? 'no reason recorded'}`;
    case 'succeeded':
      return `delivered at ${run.finishedAt ?? when}`;
    case 'failed':
      if (run.delivered === false && run.deliveryError !== undefined) return `failed at ${when}: not delivered: ${run.deliveryError}`;
      return `failed at ${when}: ${run.error ?? run.deliveryError ?? 'no reason recorded'}`;
  }
}
