import type { Target } from '../events/target.js';

/** The result of one run of a scheduled job. */
export type JobRun = {
  readonly startedAt: string;
  readonly finishedAt?: string;
  readonly status: 'running' | 'succeeded' | 'failed' | 'skipped';
  /** Whether the answer reached the target chat; false with `deliveryError` when it did not. */
  readonly delivered?: boolean;
  readonly deliveryError?: string;
  readonly error?: string;
  /** The inbound event the run started (its turn's causation id). */
  readonly eventId?: string;
};

/** A job that wakes the agent up: from config or created by the schedule_task tool. */
export type ScheduledJob = {
  readonly id: string;
  /** A 5- or 6-field cron expression, or an ISO 8601 time for a one-time job. */
  readonly schedule: string;
  readonly timezone: string;
  readonly prompt: string;
  readonly target: Target;
  readonly source: 'config' | 'tool';
  readonly createdBy?: string;
  readonly createdAt: string;
  /** For tool-created jobs: hash of the exact content a person approved. */
  readonly approvedContentHash?: string;
  /** What to do with runs missed while the process was down. */
  readonly catchUp: 'run-once' | 'skip';
  readonly lastRun?: JobRun;
  readonly nextRunAt?: string;
};

/** Input to create a job from a tool call. */
export type JobRequest = {
  readonly schedule: string;
  readonly prompt: string;
  readonly timezone?: string;
  readonly target: Target;
  readonly createdBy: string;
  readonly approvedContentHash?: string;
};

/** What tools and commands may ask of the scheduler; implemented in channels/cron. */
export interface SchedulerPort {
  create(request: JobRequest): Promise<{ ok: true; job: ScheduledJob } | { ok: false; error: string }>;
  list(filter?: { readonly target?: Target }): Promise<readonly ScheduledJob[]>;
  cancel(id: string): Promise<{ ok: true; job: ScheduledJob } | { ok: false; error: string }>;
  /** Validates a schedule expression without creating anything. */
  validate(schedule: string, timezone?: string): { ok: true; nextRunAt?: string } | { ok: false; error: string };
}
