import { randomUUID } from 'node:crypto';
import type { PgBoss } from 'pg-boss';
import type { BusStats, EventHandler, MessageBus } from '../bus/message-bus.js';
import type { EmitResult } from '../events/channel.js';
import type { InboundEvent } from '../events/inbound-event.js';
import { describeInterruptions, type ParkTurn } from '../journal/create-durable-intake.js';
import type { Logger } from '../logging/create-logger.js';
import { createBatcher } from '../store/create-batcher.js';
import type { PostgresListener } from './create-postgres-listener.js';
import { turnClaim } from './turn-claim.js';

/** What the shared queue is built from. */
export type QueueBusOptions = {
  readonly boss: PgBoss;
  /** The instance's cluster listener, on which new jobs wake the fetch loop. */
  readonly listener: PostgresListener;
  readonly queue: string;
  /** The pg-boss schema (its tables are counted directly: its own counts are refreshed only now and then). */
  readonly schema: string;
  readonly maxConcurrentTurns: number;
  readonly heartbeatSeconds: number;
  readonly logger: Logger;
  /** Longest wait between two looks at the queue when no notification came; default 2000. */
  readonly pollEveryMs?: number;
  /**
   * How often this instance looks for jobs whose heartbeat lapsed (their instance died) and hands them
   * back to the queue; default 1000. pg-boss's own supervisor does too, but only every few seconds
   * behind its queue statistics: this bounds a dead instance's turns by `heartbeatSeconds` plus a few seconds.
   */
  readonly superviseEveryMs?: number;
  /**
   * A check that found the claim held is good for this long, for the same attempt; default 250. A turn checks
   * twice within milliseconds at its end (the history write, then the final reply): one round trip serves both.
   * A claim is lost only to a lapsed heartbeat (seconds) or a failure from outside, so this adds at most this
   * much to the window every check-then-act already has.
   */
  readonly claimReuseMs?: number;
  /**
   * A job whose earlier starts were all interrupted (its instance died or its turn failed) `after` times is parked
   * instead of run again; pg-boss counts them (`retryCount`) before it hands the job out again.
   */
  readonly quarantine?: { readonly after: number; readonly park: ParkTurn };
};

/** The bus of cluster mode, plus what only a shared queue has. */
export type QueueBus = MessageBus & {
  /** Jobs waiting in the queue across all instances (cached; refreshed every few seconds). */
  queueDepth(): number;
  /** Fails nothing and deletes the jobs that failed for good, so their conversations are not blocked; resolves to how many. */
  unblockKeys(): Promise<number>;
  close(): Promise<void>;
};

type EventJob = { readonly event: InboundEvent };
type Attempt = { readonly id: string; readonly retryCount: number };
/** What pg-boss's settle calls answer at run time (its type declares none of it). */
type Settled = { readonly affected?: number; readonly settled?: readonly string[] };

const wakeChannel = 'echo_agent_events';

/**
 * Inbound events as pg-boss jobs in one `key_strict_fifo` queue keyed by session: one turn at a time
 * per conversation across every instance, conversations in parallel. Each instance runs one fetch
 * loop (woken by LISTEN/NOTIFY, with a slow poll as the floor), up to `maxConcurrentTurns` jobs at a
 * time, and heartbeats the jobs it runs: a killed instance stops heartbeating, and every instance looks
 * each second for jobs whose heartbeat lapsed and puts them back in the queue for another instance. Every job runs inside a turn claim (fencing): a worker whose job was
 * taken over finds out before it sends or writes.
 */
export function createQueueBus(options: QueueBusOptions): QueueBus {
  const { boss, queue, logger } = options;
  const pollEveryMs = options.pollEveryMs ?? 2000;
  const running = new Map<string, Attempt>();
  let closed = false;
  let depth = 0;
  let wake: (() => void) | undefined;
  // A wake that came while the loop was fetching (a job finished, a job was queued): the loop looks again at once
  // instead of sleeping until the next poll with free slots and jobs waiting.
  let wakeRequested = false;
  const wakeUp = () => {
    wakeRequested = true;
    wake?.();
  };
  let loop: Promise<void> | undefined;
  let idleWaiters: Array<() => void> = [];

  const heartbeat = setInterval(() => void touchRunning(), (options.heartbeatSeconds * 1000) / 3);
  heartbeat.unref();
  const depthTimer = setInterval(() => void refreshDepth(), 2000);
  depthTimer.unref();
  const supervisor = setInterval(() => void releaseLapsed(), options.superviseEveryMs ?? 1000);
  supervisor.unref();
  let supervising = false;

  let table: string | undefined;
  /** Jobs of this queue waiting and running now, across all instances. */
  async function countJobs(): Promise<{ readonly queued: number; readonly active: number }> {
    table ??= (await boss.getQueue(queue))?.table ?? 'job';
    const result = (await boss
      .getDb()
      .executeSql(`SELECT count(*) FILTER (WHERE state IN ('created', 'retry')) AS queued, count(*) FILTER (WHERE state = 'active') AS active FROM ${options.schema}.${table} WHERE name = $1`, [queue])) as {
      rows: Array<{ queued: string; active: string }>;
    };
    const row = result.rows[0];
    return { queued: Number(row?.queued ?? 0), active: Number(row?.active ?? 0) };
  }

  /**
   * Fails the jobs whose heartbeat lapsed (their instance died or stalled), fenced to the attempt found, so
   * pg-boss puts each back as a retry; then looks at the queue again once the first of them may start.
   * Every instance does this: the fence lets only one of them fail a given attempt.
   */
  async function releaseLapsed(): Promise<void> {
    if (supervising || closed) return;
    supervising = true;
    try {
      table ??= (await boss.getQueue(queue))?.table ?? 'job';
      const db = boss.getDb();
      const lapsed = (await db.executeSql(
        `SELECT id, retry_count FROM ${options.schema}.${table} WHERE name = $1 AND state = 'active' AND heartbeat_seconds IS NOT NULL AND heartbeat_on + heartbeat_seconds * interval '1 second' < ${options.schema}.job_now()`,
        [queue],
      )) as { rows: Array<{ id: string; retry_count: number }> };
      if (lapsed.rows.length === 0) return;
      const attempts = lapsed.rows.map((row) => ({ id: row.id, retryCount: Number(row.retry_count) }));
      const failed = (await boss.fail(queue, attempts, { error: 'heartbeat lapsed: its instance stopped' })) as Settled;
      const released = failed.settled ?? [];
      if (released.length === 0) return;
      logger.warn({ jobs: released.length }, 'turns of an instance that stopped heartbeating go back to the queue');
      const next = (await db.executeSql(`SELECT extract(epoch FROM min(start_after) - ${options.schema}.job_now()) * 1000 AS wait FROM ${options.schema}.${table} WHERE name = $1 AND id = ANY($2::uuid[]) AND state = 'retry'`, [
        queue,
        released,
      ])) as { rows: Array<{ wait: string | null }> };
      const waitMs = Math.max(0, Number(next.rows[0]?.wait ?? 0)) + 20;
      setTimeout(() => {
        wakeUp();
        void db.executeSql(`SELECT pg_notify('${wakeChannel}', '')`).catch(() => undefined);
      }, waitMs).unref();
    } catch (error) {
      logger.warn({ err: error }, 'could not look for turns of stopped instances; pg-boss supervision still does');
    } finally {
      supervising = false;
    }
  }

  async function refreshDepth(): Promise<void> {
    const counted = await countJobs().catch(() => undefined);
    if (counted) depth = counted.queued;
  }

  async function touchRunning(): Promise<void> {
    if (running.size === 0) return;
    await boss.touch(queue, [...running.values()]).catch((error: unknown) => logger.warn({ err: error }, 'job heartbeat failed; jobs may move to another instance'));
  }

  const claimReuseMs = options.claimReuseMs ?? 250;
  /**
   * When a check last found each running attempt's claim held (performance.now() at the check's start), by
   * `<job id>:<retry count>`: a stale attempt of a job must not reuse what the attempt that took it over found.
   */
  const confirmedAt = new Map<string, number>();
  const attemptKey = (attempt: Attempt) => `${attempt.id}:${attempt.retryCount}`;

  /** Asks the queue whether this attempt of the job is still active under this worker (a fresh positive answer is reused). */
  async function holds(attempt: Attempt): Promise<boolean> {
    const key = attemptKey(attempt);
    const confirmed = confirmedAt.get(key);
    if (confirmed !== undefined && performance.now() - confirmed < claimReuseMs) return true;
    const started = performance.now();
    const held = await checkHeld(attempt);
    if (held && running.get(attempt.id)?.retryCount === attempt.retryCount) confirmedAt.set(key, started);
    else confirmedAt.delete(key);
    return held;
  }

  /**
   * Which of these attempts are still active under their fetch: a read, not pg-boss's touch (the same fence
   * without a row update and its commit; the heartbeat timer keeps the jobs alive). Checks made while one is in
   * flight go together in one statement.
   */
  const checkHeld = createBatcher<Attempt, boolean>(async (attempts) => {
    table ??= (await boss.getQueue(queue))?.table ?? 'job';
    const found = (await boss
      .getDb()
      .executeSql(`SELECT id::text || ':' || retry_count::text AS attempt FROM ${options.schema}.${table} WHERE name = $1 AND id = ANY($2::uuid[]) AND state = 'active'`, [
        queue,
        attempts.map((attempt) => attempt.id),
      ])) as { rows: Array<{ attempt: string }> };
    const active = new Set(found.rows.map((row) => row.attempt));
    return attempts.map((attempt) => active.has(attemptKey(attempt)));
  });

  /** Completes an attempt (fenced to it); completions made while one is in flight go together. Resolves to whether it was still this worker's. */
  const completeAttempt = createBatcher<Attempt, boolean>(async (attempts) => {
    const done = (await boss.complete(queue, [...attempts])) as Settled;
    return attempts.map((attempt) => (done.settled ? done.settled.includes(attempt.id) : (done.affected ?? attempts.length) > 0));
  });

  /**
   * Queues one event as a job keyed by its session (the queue's retries, heartbeat and expiry apply, as with
   * `send`); events published while an insert is in flight go in one statement. Resolves to whether it was queued.
   */
  const insertJob = createBatcher<EventJob, boolean>(async (jobs) => {
    const ids = jobs.map(() => randomUUID());
    const inserted = new Set((await boss.insert(queue, jobs.map((data, index) => ({ id: ids[index], data, singletonKey: data.event.sessionKey })), { returnId: true })) ?? []);
    return ids.map((id) => inserted.has(id));
  });

  async function run(job: { readonly id: string; readonly retryCount: number; readonly data: EventJob }, handle: EventHandler): Promise<void> {
    const attempt = { id: job.id, retryCount: job.retryCount };
    // A job that runs again (its first worker died, or failed) is a re-run: the durable turn model knows what that means.
    const event: InboundEvent = job.retryCount > 0 ? { ...job.data.event, redelivered: true } : job.data.event;
    try {
      const { quarantine } = options;
      // A resumption counts its own starts in its approval or suspension (any instance's sweep may queue it again as a
      // new job), and parks itself: its job's retries are not a count of it.
      if (quarantine && job.retryCount >= quarantine.after && event.type !== 'turn-resumed') {
        logger.error({ jobId: job.id, eventId: event.id, sessionKey: event.sessionKey, attempts: job.retryCount }, 'inbound event parked: its turn was interrupted too often to run again');
        await quarantine.park({ event, attempts: job.retryCount, reason: describeInterruptions(job.retryCount) });
        await boss.complete(queue, attempt);
        return;
      }
      await turnClaim.run({ holds: () => holds(attempt) }, () => handle(event));
      if (!(await completeAttempt(attempt))) logger.warn({ jobId: job.id, eventId: event.id }, 'job finished after another instance took it over; its result was not recorded here');
    } catch (error) {
      logger.error({ err: error, jobId: job.id, eventId: event.id, attempt: job.retryCount + 1 }, 'turn failed; its job is retried');
      await boss.fail(queue, attempt, { error: error instanceof Error ? error.message : String(error) }).catch((failError: unknown) => logger.warn({ err: failError, jobId: job.id }, 'could not mark the job failed; its heartbeat lapses and it is retried'));
    } finally {
      if (running.get(job.id)?.retryCount === attempt.retryCount) running.delete(job.id);
      confirmedAt.delete(attemptKey(attempt));
      wakeUp();
      if (running.size === 0) settleIdleWaiters();
    }
  }

  function settleIdleWaiters(): void {
    if (idleWaiters.length === 0) return;
    void countJobs()
      .then((counted) => {
        depth = counted.queued;
        if (running.size > 0 || counted.queued + counted.active > 0) return;
        const waiters = idleWaiters;
        idleWaiters = [];
        for (const resolve of waiters) resolve();
      })
      .catch(() => undefined);
  }

  async function fetchLoop(handle: EventHandler): Promise<void> {
    while (!closed) {
      const room = options.maxConcurrentTurns - running.size;
      let fetched = 0;
      let failed = false;
      wakeRequested = false;
      if (room > 0) {
        try {
          const jobs = await boss.fetch<EventJob>(queue, { batchSize: room });
          fetched = jobs.length;
          for (const job of jobs) {
            running.set(job.id, { id: job.id, retryCount: job.retryCount });
            void run(job, handle);
          }
        } catch (error) {
          logger.warn({ err: error }, 'could not fetch jobs from the queue; trying again');
          failed = true;
        }
      }
      if (fetched > 0 && fetched === room) continue;
      if (wakeRequested && !failed && running.size < options.maxConcurrentTurns) continue;
      if (fetched === 0 && running.size === 0) settleIdleWaiters();
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollEveryMs);
        wake = () => {
          clearTimeout(timer);
          wake = undefined;
          resolve();
        };
      });
    }
  }

  /** New jobs wake the loop: pg-boss's notify in the statement that inserts one, and wakes of our own. */
  async function listen(): Promise<void> {
    // pg-boss notifies on its channel in the statement that inserts a job (the queue's `notify` option); the
    // channel of our own is still listened to for wakes of our own and for instances of earlier versions.
    const result = (await boss.getDb().executeSql(`SELECT 'pgboss_' || left(encode(sha224(convert_to($1, 'UTF8')), 'hex'), 24) AS channel`, [options.schema])) as { rows: Array<{ channel: string }> };
    const channel = result.rows[0]?.channel;
    options.listener.listen(wakeChannel, wakeUp);
    if (channel !== undefined) options.listener.listen(channel, (payload) => (payload === queue ? wakeUp() : undefined));
    // Notifications sent while the listener was away were missed: look at the queue once it is back.
    options.listener.onConnected(wakeUp);
  }

  return {
    async publish(event): Promise<EmitResult> {
      if (closed) return { accepted: false, reason: 'closed' };
      // The platform payload is for debugging only and can be large: it is not queued.
      const { raw: _raw, ...kept } = event;
      try {
        // The insert woke every listening instance in the same statement (the queue's `notify` option).
        if (!(await insertJob({ event: kept }))) return { accepted: false, reason: 'busy' };
        return { accepted: true };
      } catch (error) {
        logger.error({ err: error, eventId: event.id }, 'event could not be queued; refused so the platform delivers it again');
        return { accepted: false, reason: 'unavailable' };
      }
    },
    subscribe(next) {
      void listen().catch((error: unknown) => logger.warn({ err: error }, 'no queue listener; polling every few seconds'));
      loop = fetchLoop(next);
    },
    async drain(timeoutMs) {
      closed = true;
      wake?.();
      await loop;
      const deadline = Date.now() + timeoutMs;
      while (running.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      return { drained: running.size === 0, abandoned: running.size };
    },
    stats(): BusStats {
      return { queued: depth, active: running.size, sessions: running.size };
    },
    idle() {
      return new Promise<void>((resolve) => {
        idleWaiters.push(resolve);
        settleIdleWaiters();
      });
    },
    queueDepth: () => depth,
    async unblockKeys() {
      let removed = 0;
      for (const key of await boss.getBlockedKeys(queue)) {
        const jobs = await boss.findJobs<EventJob>(queue, { key });
        const failed = jobs.filter((job) => job.state === 'failed');
        for (const job of failed) {
          logger.error({ jobId: job.id, eventId: job.data.event.id, sessionKey: key, attempts: job.retryCount + 1 }, 'inbound event given up after repeated attempts');
          await boss.deleteJob(queue, job.id);
          removed += 1;
        }
      }
      return removed;
    },
    async close() {
      closed = true;
      wake?.();
      clearInterval(heartbeat);
      clearInterval(depthTimer);
      clearInterval(supervisor);
    },
  };
}
