import type { JobRun, ScheduledJob } from '../scheduling/scheduled-job.js';
import type { KeyValueNamespace, Store } from '../store/key-value-namespace.js';

/** How many runs each job keeps in its history. */
export const keptRuns = 20;

/** A job as stored: the port's shape plus what the scheduler needs to keep across restarts. */
export type StoredJob = ScheduledJob & {
  /** A one-time job that has fired (or was skipped): kept for its record, never armed again. */
  readonly done?: boolean;
  /** For tool jobs: whether the approved content included a time zone (the model gave one). */
  readonly timezoneApproved?: boolean;
  /** The latest runs, newest last (skipped firings included). */
  readonly recentRuns?: readonly JobRun[];
  /** Set while an operator has paused the job (web console): not armed, no catch-up; run now still works. */
  readonly paused?: { readonly by: string; readonly at: string };
};

/** Durable jobs in the `schedules` namespace, with an index key listing their ids (keyv cannot list keys). */
export interface JobStore {
  all(): Promise<readonly StoredJob[]>;
  get(id: string): Promise<StoredJob | undefined>;
  /** Writes a job (and indexes it). */
  put(job: StoredJob): Promise<void>;
  /** Changes a job atomically within this process; undefined when it does not exist. */
  change(id: string, change: (job: StoredJob) => StoredJob): Promise<StoredJob | undefined>;
  remove(id: string): Promise<boolean>;
}

const indexKey = '__index';

/** Opens the job store over the app's store. */
export function createJobStore(store: Store): JobStore {
  const jobs = store.namespace<StoredJob>('schedules');
  const index = store.namespace<string[]>('schedules') as KeyValueNamespace<string[]>;
  return {
    async all() {
      const ids = (await index.get(indexKey)) ?? [];
      const found = await Promise.all(ids.map((id) => jobs.get(id)));
      return found.filter((job): job is StoredJob => job !== undefined);
    },
    get: (id) => (id === indexKey ? Promise.resolve(undefined) : jobs.get(id)),
    async put(job) {
      await jobs.set(job.id, job);
      await index.update(indexKey, (ids = []) => (ids.includes(job.id) ? ids : [...ids, job.id]));
    },
    change(id, change) {
      return jobs.update(id, (current) => (current === undefined ? undefined : change(current)));
    },
    async remove(id) {
      const existed = await jobs.delete(id);
      await index.update(indexKey, (ids = []) => ids.filter((candidate) => candidate !== id));
      return existed;
    },
  };
}

/** Adds a run to a job: it becomes the last run and joins the bounded history. Pure. */
export function withRun(job: StoredJob, run: JobRun): StoredJob {
  return { ...job, lastRun: run, recentRuns: [...(job.recentRuns ?? []), run].slice(-keptRuns) };
}

/** Replaces the job's last run (the one in progress) with its finished form. Pure. */
export function withFinishedRun(job: StoredJob, run: JobRun): StoredJob {
  const history = [...(job.recentRuns ?? [])];
  const index = history.findLastIndex((candidate) => candidate.startedAt === run.startedAt && candidate.status === 'running');
  if (index >= 0) history[index] = run;
  else history.push(run);
  return { ...job, lastRun: run, recentRuns: history.slice(-keptRuns) };
}
