import type { StoredJob } from './job-store.js';
import { parseSchedule } from './parse-schedule.js';

/** What to do with one stored job when the scheduler starts. */
export type JobPlan = {
  readonly jobId: string;
  /** Its last run was still going when the process stopped: record it as failed. */
  readonly interrupted: boolean;
  /** Arm a timer for the next due time. */
  readonly arm?: { readonly kind: 'recurring'; readonly expression: string; readonly timezone: string } | { readonly kind: 'once'; readonly at: Date };
  /** A run was missed while the process was down and the job catches up: fire once now. */
  readonly fireNow: boolean;
  /** A run was missed and the job skips it (a one-time job is then spent). */
  readonly missedSkipped: boolean;
  readonly invalid?: string;
};

/**
 * Decides a job's start-up: a one-time job whose time passed while down runs once (`catchUp: run-once`,
 * its default) or is spent; a recurring job whose stored next run passed skips to its next time (its
 * default) or runs once now. Spent one-time jobs are left alone. Pure.
 */
export function planStartup(job: StoredJob, now: Date): JobPlan {
  const interrupted = job.lastRun?.status === 'running';
  const base = { jobId: job.id, interrupted, fireNow: false, missedSkipped: false };
  // A paused job waits for its resume: nothing armed, a run missed meanwhile is not caught up.
  if (job.done || job.paused !== undefined) return base;
  const parsed = parseSchedule(job.schedule, job.timezone);
  if (!parsed.ok) return { ...base, invalid: parsed.error };
  if (parsed.kind === 'once') {
    if (parsed.at.getTime() > now.getTime()) return { ...base, arm: { kind: 'once', at: parsed.at } };
    return job.catchUp === 'run-once' ? { ...base, fireNow: true } : { ...base, missedSkipped: true };
  }
  const arm = { kind: 'recurring' as const, expression: parsed.expression, timezone: job.timezone };
  // Due before now and not started since: the process was down at that time (a run that started is not "missed").
  const dueAt = job.nextRunAt === undefined ? undefined : new Date(job.nextRunAt).getTime();
  const startedSince = dueAt !== undefined && job.lastRun !== undefined && new Date(job.lastRun.startedAt).getTime() >= dueAt;
  const missed = dueAt !== undefined && dueAt <= now.getTime() && !startedSince;
  if (!missed) return { ...base, arm };
  return job.catchUp === 'run-once' ? { ...base, arm, fireNow: true } : { ...base, arm, missedSkipped: true };
}
