import type { Config } from '../config/config-schema.js';
import type { Channel, ChannelStatus, Emit } from '../events/channel.js';
import type { Delivery } from '../events/outbound-event.js';
import type { Outbox } from '../events/outbox.js';
import type { Logger } from '../logging/create-logger.js';
import type { SchedulerPort } from '../scheduling/scheduled-job.js';
import type { Store } from '../store/key-value-namespace.js';
import type { Telemetry } from '../telemetry/telemetry.js';
import { jobsFromConfig, syncConfigJobs } from './config-jobs.js';
import { createJobRunner, type FireReason, type FireResult } from './create-job-runner.js';
import { createSchedulerPort } from './create-scheduler-port.js';
import { createJobStore, type StoredJob, withFinishedRun, withRun } from './job-store.js';
import { createJobTimers } from './job-timers.js';
import { parseSchedule } from './parse-schedule.js';
import { planStartup } from './plan-startup.js';

/** What the scheduler is built from. */
export type SchedulerOptions = {
  readonly config: Config;
  readonly store: Store;
  readonly outbox: Outbox;
  readonly telemetry: Telemetry;
  readonly logger: Logger;
  /** The clock for run records and one-time jobs (tests); cron expressions follow the real clock. */
  readonly now?: () => Date;
  /**
   * Other instances share this store (cluster mode): every instance arms every job, each due time is
   * claimed in the store so it fires once, jobs a tool schedules elsewhere are picked up, and a run
   * marked running may be going on another instance.
   */
  readonly shared?: boolean;
  /** How often a shared scheduler looks for jobs scheduled on other instances; default 10 000 ms. */
  readonly reconcileEveryMs?: number;
};

/** A due time stays claimed this long: longer than any clock skew or restart between instances. */
const keepSlotClaimsMs = 2 * 24 * 60 * 60 * 1000;

/**
 * The name the scheduler's events carry as their channel (session keys `cron:<job>`, `/healthz`): it is the core's
 * event source for schedules, not a channel adapter, and no adapter may take this name.
 */
export const schedulerSourceName = 'cron';

/**
 * The core scheduler: fires jobs into the intake as events (it implements the Channel port for that, and shows
 * nothing: a job answers in its target chat), and is the SchedulerPort the schedule tools use.
 */
export type Scheduler = Channel & {
  readonly scheduler: SchedulerPort;
  /** Fires a job now, under the same rules as a timer (no overlap, content check). */
  runNow(jobId: string): Promise<FireResult>;
  /** Every stored job, spent one-time jobs and run history included. */
  jobs(): Promise<readonly StoredJob[]>;
  /** Stops arming a job until it is resumed (web console); it stays listed and can still be run now. */
  pause(jobId: string, by: string): Promise<JobChange>;
  /** Arms a paused job again from its next due time (runs missed while paused are not caught up). */
  resume(jobId: string): Promise<JobChange>;
  /** Problems found in `cron.jobs` of the config (those jobs do not run). */
  readonly configProblems: readonly string[];
};

/** What pausing or resuming a job found: the job as stored after, or why not. */
export type JobChange = { readonly ok: true; readonly job: StoredJob } | { readonly ok: false; readonly error: string };

/** Creates the scheduler over the store; jobs are loaded, caught up and armed in `start`. */
export function createScheduler(options: SchedulerOptions): Scheduler {
  const now = options.now ?? (() => new Date());
  const { logger } = options;
  const jobs = createJobStore(options.store);
  const fromConfig = jobsFromConfig(options.config, { now: now() });
  const runner = createJobRunner({ jobs, outbox: options.outbox, telemetry: options.telemetry, logger, now, shared: options.shared });
  const timers = createJobTimers({ onFire: (jobId, slot) => void fireAndRearm(jobId, 'scheduled', slot), logger, now });
  const slotClaims = options.store.namespace<string>('cron-slots');
  let started = false;
  let state: ChannelStatus = { state: 'stopped' };
  let reconciler: NodeJS.Timeout | undefined;

  /** True for the first caller (of any instance) to claim this due time of this job. */
  async function claimSlot(jobId: string, slot: Date): Promise<boolean> {
    const claimId = `${process.pid}-${Math.random()}`;
    const claimed = await slotClaims.update(`${jobId}@${slot.toISOString()}`, (current) => current ?? claimId, keepSlotClaimsMs);
    return claimed === claimId;
  }

  async function fireAndRearm(jobId: string, reason: FireReason, slot?: Date): Promise<FireResult> {
    if (slot !== undefined && !(await claimSlot(jobId, slot).catch(() => false))) {
      logger.debug({ jobId, slot: slot.toISOString() }, 'scheduled run already fired by another instance');
      return { ok: false, reason: 'skipped', error: `Job ${jobId} at ${slot.toISOString()} fired elsewhere.` };
    }
    const result = await runner.fire(jobId, reason).catch((error: unknown): FireResult => {
      logger.error({ err: error, jobId }, 'scheduled job failed to fire');
      return { ok: false, reason: 'refused', error: String(error) };
    });
    // The stored next run is how a restart tells that a run was missed.
    const next = timers.nextRun(jobId);
    if (next !== undefined) await jobs.change(jobId, (job) => ({ ...job, nextRunAt: next.toISOString() })).catch(() => undefined);
    return result;
  }

  function arm(job: StoredJob): void {
    if (!started || job.done || job.paused !== undefined) return;
    const parsed = parseSchedule(job.schedule, job.timezone);
    if (!parsed.ok) return;
    if (parsed.kind === 'once') timers.armOnce(job.id, parsed.at);
    else timers.armRecurring(job.id, parsed.expression, job.timezone);
  }

  const scheduler = createSchedulerPort({ jobs, defaultTimezone: options.config.agent.timezone, now, onCreated: arm, onCancelled: (jobId) => timers.disarm(jobId) });

  async function start(emit: Emit): Promise<void> {
    state = { state: 'starting' };
    const sync = syncConfigJobs(await jobs.all(), fromConfig.jobs);
    for (const id of sync.clashes) logger.error({ jobId: id }, 'a cron job in config has the id of a task a person scheduled; the config job is ignored');
    for (const id of sync.remove) await jobs.remove(id);
    for (const job of sync.write) await jobs.put(job);
    runner.attach(emit);
    started = true;

    const catchUps: Array<{ readonly jobId: string; readonly slot?: Date }> = [];
    let armed = 0;
    for (const job of sync.jobs) {
      const plan = planStartup(job, now());
      const at = now().toISOString();
      // Shared: a run marked running may be going on another instance (or re-run there after a crash).
      const interruptedRun = plan.interrupted && options.shared !== true ? job.lastRun : undefined;
      if (interruptedRun !== undefined) {
        await jobs.change(job.id, (current) => withFinishedRun(current, { ...interruptedRun, finishedAt: at, status: 'failed', error: 'the process stopped before the run finished' }));
      }
      if (plan.invalid !== undefined) logger.error({ jobId: job.id, error: plan.invalid }, 'scheduled job has an invalid schedule and is not armed');
      if (plan.missedSkipped) {
        logger.info({ jobId: job.id }, 'scheduled job missed a run while the process was down; skipping to its next time');
        if (plan.arm === undefined) await jobs.change(job.id, (current) => withRun({ ...current, done: true }, { startedAt: at, finishedAt: at, status: 'skipped', error: 'missed while the process was down' }));
      }
      if (plan.arm?.kind === 'once') timers.armOnce(job.id, plan.arm.at);
      if (plan.arm?.kind === 'recurring') timers.armRecurring(job.id, plan.arm.expression, plan.arm.timezone);
      if (plan.arm !== undefined) armed += 1;
      if (plan.fireNow) catchUps.push({ jobId: job.id, slot: job.nextRunAt === undefined ? undefined : new Date(job.nextRunAt) });
      const next = timers.nextRun(job.id);
      if (next !== undefined) await jobs.change(job.id, (current) => ({ ...current, nextRunAt: next.toISOString() }));
    }
    state = { state: 'running', detail: `${armed} job${armed === 1 ? '' : 's'} armed` };
    for (const { jobId, slot } of catchUps) {
      logger.info({ jobId }, 'scheduled job missed while the process was down; running it once now');
      await fireAndRearm(jobId, 'catch-up', slot);
    }
    if (options.shared === true) {
      reconciler = setInterval(() => void reconcile().catch((error: unknown) => logger.warn({ err: error }, 'could not look for jobs scheduled elsewhere')), options.reconcileEveryMs ?? 10_000);
      reconciler.unref();
    }
  }

  /** Arms jobs another instance scheduled and disarms those it cancelled or spent. */
  async function reconcile(): Promise<void> {
    if (!started) return;
    const stored = await jobs.all();
    const live = new Set(stored.filter((job) => !job.done && job.paused === undefined).map((job) => job.id));
    for (const jobId of timers.armed()) if (!live.has(jobId)) timers.disarm(jobId);
    const armed = new Set(timers.armed());
    for (const job of stored) if (live.has(job.id) && !armed.has(job.id)) arm(job);
  }

  return {
    name: schedulerSourceName,
    scheduler,
    configProblems: fromConfig.problems,
    start,
    async send(): Promise<Delivery> {
      return { ok: false, error: 'The scheduler shows nothing; a job answers in its target chat.', retryable: false };
    },
    async stop() {
      started = false;
      clearInterval(reconciler);
      timers.disarmAll();
      await runner.detach();
      state = { state: 'stopped' };
    },
    status: () => state,
    runNow: (jobId) => fireAndRearm(jobId, 'manual'),
    jobs: () => jobs.all(),
    async pause(jobId, by) {
      const changed = await jobs.change(jobId, (job) => (job.done ? job : { ...job, paused: { by, at: now().toISOString() } }));
      if (changed === undefined) return { ok: false, error: `There is no scheduled job ${jobId}.` };
      if (changed.done) return { ok: false, error: `One-time job ${jobId} has already run.` };
      timers.disarm(jobId);
      return { ok: true, job: changed };
    },
    async resume(jobId) {
      const changed = await jobs.change(jobId, ({ paused: _paused, ...job }) => job);
      if (changed === undefined) return { ok: false, error: `There is no scheduled job ${jobId}.` };
      arm(changed);
      const next = timers.nextRun(jobId);
      const stored = next === undefined ? changed : ((await jobs.change(jobId, (job) => ({ ...job, nextRunAt: next.toISOString() }))) ?? changed);
      return { ok: true, job: stored };
    },
  };
}
