import type { Config } from '../config/config-schema.js';
import { parseTarget } from '../events/target.js';
import type { StoredJob } from './job-store.js';
import { isOneTimeSchedule, parseSchedule } from './parse-schedule.js';

/** The jobs config declares, as stored jobs (without run state), or the problems found in them. Pure. */
export function jobsFromConfig(config: Config, options: { readonly now: Date }): { readonly jobs: readonly StoredJob[]; readonly problems: readonly string[] } {
  const jobs: StoredJob[] = [];
  const problems: string[] = [];
  for (const entry of config.cron.jobs) {
    const target = parseTarget(entry.target);
    if (target === undefined) {
      problems.push(`cron job ${entry.id}: target "${entry.target}" is not channel:chatId`);
      continue;
    }
    const timezone = entry.timezone ?? config.agent.timezone;
    const parsed = parseSchedule(entry.schedule, timezone);
    if (!parsed.ok) problems.push(`cron job ${entry.id}: schedule "${entry.schedule}" is not valid: ${parsed.error}`);
    jobs.push({
      id: entry.id,
      schedule: entry.schedule.trim(),
      timezone,
      prompt: entry.prompt,
      target,
      source: 'config',
      createdAt: options.now.toISOString(),
      catchUp: entry.catchUp ?? (isOneTimeSchedule(entry.schedule) ? 'run-once' : 'skip'),
    });
  }
  return { jobs, problems };
}

/** True when two jobs would run the same thing at the same times for the same chat. Pure. */
export function isSameContent(left: StoredJob, right: StoredJob): boolean {
  return (
    left.schedule === right.schedule &&
    left.timezone === right.timezone &&
    left.prompt === right.prompt &&
    left.catchUp === right.catchUp &&
    left.target.channel === right.target.channel &&
    left.target.chatId === right.target.chatId
  );
}

/** What syncing config jobs into the store does: the jobs in force, records to write, ids to drop, clashes. */
export type ConfigSync = {
  readonly jobs: readonly StoredJob[];
  readonly write: readonly StoredJob[];
  readonly remove: readonly string[];
  readonly clashes: readonly string[];
};

/**
 * Merges config jobs over the stored ones: an unchanged config job keeps its run state, a changed one
 * starts afresh (keeping its run history), one no longer in config is dropped. A config id that names a
 * job a person approved (a tool job) does not replace it. Pure.
 */
export function syncConfigJobs(stored: readonly StoredJob[], fromConfig: readonly StoredJob[]): ConfigSync {
  const byId = new Map(stored.map((job) => [job.id, job]));
  const configIds = new Set(fromConfig.map((job) => job.id));
  const jobs: StoredJob[] = stored.filter((job) => job.source === 'tool');
  const write: StoredJob[] = [];
  const clashes: string[] = [];
  for (const job of fromConfig) {
    const existing = byId.get(job.id);
    if (existing?.source === 'tool') {
      clashes.push(job.id);
      continue;
    }
    if (existing && isSameContent(existing, job)) {
      jobs.push(existing);
      continue;
    }
    const fresh: StoredJob = existing ? { ...job, lastRun: existing.lastRun, recentRuns: existing.recentRuns, ...(existing.paused === undefined ? {} : { paused: existing.paused }) } : job;
    jobs.push(fresh);
    write.push(fresh);
  }
  const remove = stored.filter((job) => job.source === 'config' && !configIds.has(job.id)).map((job) => job.id);
  return { jobs, write, remove, clashes };
}
