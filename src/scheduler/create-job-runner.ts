import type { Emit } from '../events/channel.js';
import { createId } from '../events/create-id.js';
import type { Outbox, TurnFinished } from '../events/outbox.js';
import type { Logger } from '../logging/create-logger.js';
import type { JobRun } from '../scheduling/scheduled-job.js';
import type { Telemetry } from '../telemetry/telemetry.js';
import { contentHashOf } from './content-hash.js';
import { type JobStore, type StoredJob, withFinishedRun, withRun } from './job-store.js';
import { notifyOwner } from './notify-owner.js';
import { isOneTimeSchedule } from './parse-schedule.js';
import { jobIdOfSession, jobToEvent } from './to-event.js';

/** Why a job fired. */
export type FireReason = 'scheduled' | 'catch-up' | 'manual';

/** What a firing did: started a turn (its event id), or why not. */
export type FireResult =
  | { readonly ok: true; readonly eventId: string }
  | { readonly ok: false; readonly reason: 'not-found' | 'not-started' | 'done' | 'skipped' | 'refused' | 'busy'; readonly error: string };

/** Fires jobs and records each run from the turn it started. */
export interface JobRunner {
  fire(jobId: string, reason: FireReason): Promise<FireResult>;
  isRunning(jobId: string): boolean;
  /** Starts firing into the bus and listening for finished turns. */
  attach(emit: Emit): void;
  /** Stops firing; waits for run records still being written. */
  detach(): Promise<void>;
}

type Running = { readonly eventId: string; readonly startedAt: string };

/**
 * Creates the runner. Rules: a job whose last turn has not finished is not started again (a `skipped`
 * run is recorded); a tool job whose content no longer matches the hash a person approved is refused;
 * a run counts as succeeded only when its answer was delivered, and a failed delivery is logged and the
 * job's owner told; a run a budget stopped before the model was asked is recorded as `skipped`, with why.
 */
export function createJobRunner(options: {
  readonly jobs: JobStore;
  readonly outbox: Outbox;
  readonly telemetry: Telemetry;
  readonly logger: Logger;
  readonly now: () => Date;
  /** Other instances share the store: a job's turn may finish here though another instance fired it. */
  readonly shared?: boolean;
}): JobRunner {
  const running = new Map<string, Running>();
  const writes = new Set<Promise<unknown>>();
  let emit: Emit | undefined;
  let unsubscribe: (() => void) | undefined;
  const { logger } = options;

  function track(work: Promise<unknown>): void {
    const tracked = work.catch((error: unknown) => logger.error({ err: error }, 'a scheduled run could not be recorded'));
    writes.add(tracked);
    void tracked.finally(() => writes.delete(tracked));
  }

  async function recordAndFinish(jobId: string, run: JobRun): Promise<StoredJob | undefined> {
    return options.jobs.change(jobId, (job) => withFinishedRun(job, run));
  }

  async function fire(jobId: string, reason: FireReason): Promise<FireResult> {
    const job = await options.jobs.get(jobId);
    if (!job) return { ok: false, reason: 'not-found', error: `There is no scheduled job ${jobId}.` };
    if (!emit) return { ok: false, reason: 'not-started', error: 'The scheduler is not running.' };
    if (job.done && reason !== 'manual') return { ok: false, reason: 'done', error: `One-time job ${jobId} has already run.` };
    // A timer armed before the pause reached this instance (cluster: until the next reconcile) fires nothing.
    if (job.paused !== undefined && reason !== 'manual') return { ok: false, reason: 'skipped', error: `Job ${jobId} is paused.` };
    const startedAt = options.now().toISOString();
    // Shared: runs of one job queue behind each other in its session (one turn at a time across instances).
    if (options.shared !== true && running.has(jobId)) {
      const run: JobRun = { startedAt, finishedAt: startedAt, status: 'skipped', error: 'the previous run has not finished yet' };
      await options.jobs.change(jobId, (current) => withRun(current, run));
      logger.info({ jobId, reason }, 'scheduled job skipped: its previous run is still going');
      return { ok: false, reason: 'skipped', error: run.error ?? '' };
    }
    const once = isOneTimeSchedule(job.schedule);
    if (job.source === 'tool' && (job.approvedContentHash === undefined || contentHashOf({ ...job, timezoneApproved: job.timezoneApproved ?? true }) !== job.approvedContentHash)) {
      const error = 'its content changed since a person approved it (or it was never approved): it needs a new approval';
      await options.jobs.change(jobId, (current) => withRun({ ...current, done: once ? true : current.done }, { startedAt, finishedAt: startedAt, status: 'failed', error }));
      logger.error({ jobId, reason }, `scheduled job refused: ${error}`);
      return { ok: false, reason: 'refused', error: `Job ${jobId} was not run: ${error}.` };
    }

    const eventId = createId();
    if (options.shared !== true) running.set(jobId, { eventId, startedAt });
    // A one-time job is spent as soon as it starts: a crash mid-turn must not run it twice.
    await options.jobs.change(jobId, (current) => withRun({ ...current, done: once ? true : current.done }, { startedAt, status: 'running', eventId }));
    const emitted = await emit(jobToEvent(job, { eventId, now: options.now() }));
    if (!emitted.accepted) {
      running.delete(jobId);
      const error = `the agent refused the run (${emitted.reason})`;
      await recordAndFinish(jobId, { startedAt, finishedAt: options.now().toISOString(), status: 'failed', delivered: false, error });
      logger.warn({ jobId, reason: emitted.reason }, 'scheduled job could not be queued');
      return { ok: false, reason: 'busy', error: `Job ${jobId} was not run: ${error}.` };
    }
    logger.info({ jobId, eventId, reason }, 'scheduled job fired');
    return { ok: true, eventId };
  }

  function onTurnFinished(report: TurnFinished): void {
    // The turn a firing started, or its continuation after an approval (same job session, new event id).
    let jobId = [...running.entries()].find(([, entry]) => entry.eventId === report.causationId)?.[0];
    if (jobId === undefined) {
      const sessionJob = jobIdOfSession(report.sessionKey);
      if (sessionJob !== undefined && running.has(sessionJob)) jobId = sessionJob;
    }
    const entry = jobId === undefined ? undefined : running.get(jobId);
    if (report.status === 'suspended') return;
    const otherInstanceJob = entry === undefined && options.shared === true ? jobIdOfSession(report.sessionKey) : undefined;
    if (otherInstanceJob !== undefined) {
      // Fired elsewhere (or re-run here after its instance died): the stored run is the one to finish.
      track(
        options.jobs.change(otherInstanceJob, (job) => {
          const started = (job.recentRuns ?? []).findLast((run) => run.status === 'running' && run.eventId === report.causationId) ?? (job.lastRun?.status === 'running' ? job.lastRun : undefined);
          return started ? withFinishedRun(job, { ...runFromReport(started.startedAt, options.now().toISOString(), report), ...(started.eventId ? { eventId: started.eventId } : {}) }) : job;
        }),
      );
      return;
    }
    if (jobId === undefined || entry === undefined) return;
    running.delete(jobId);
    const run = runFromReport(entry.startedAt, options.now().toISOString(), report);
    const finishedJobId = jobId;
    track(
      recordAndFinish(finishedJobId, run).then(async (job) => {
        if (run.delivered === true || run.status === 'skipped') return;
        logger.warn({ jobId: finishedJobId, status: run.status, error: run.deliveryError ?? run.error }, 'scheduled job ran but its answer was not delivered');
        if (job) await notifyOwner({ job, run, outbox: options.outbox, logger });
      }),
    );
  }

  return {
    fire,
    isRunning: (jobId) => running.has(jobId),
    attach(nextEmit) {
      emit = nextEmit;
      unsubscribe = options.telemetry.onTurnFinished(onTurnFinished);
    },
    async detach() {
      emit = undefined;
      unsubscribe?.();
      unsubscribe = undefined;
      await Promise.all([...writes]);
    },
  };
}

/** A finished run from the turn's report: succeeded only when the turn completed and its answer arrived. Pure. */
export function runFromReport(startedAt: string, finishedAt: string, report: TurnFinished): JobRun {
  // A budget stopped the run before the model was asked: nothing ran, and the record says why.
  if (report.reason === 'budget') return { startedAt, finishedAt, status: 'skipped', error: `budget: ${report.text ?? 'a budget is used up'}` };
  const delivery = report.delivery;
  const delivered = delivery?.ok === true;
  const deliveryError = delivery === undefined ? 'no answer was sent' : delivery.ok ? undefined : delivery.error;
  const completed = report.status === 'completed';
  return {
    startedAt,
    finishedAt,
    status: completed && delivered ? 'succeeded' : 'failed',
    delivered,
    ...(deliveryError === undefined ? {} : { deliveryError }),
    ...(completed ? {} : { error: `the turn ended ${report.status}${report.text ? `: ${report.text}` : ''}` }),
  };
}
