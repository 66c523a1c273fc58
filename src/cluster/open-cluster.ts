import { hostname } from 'node:os';
import { PgBoss } from 'pg-boss';
import { describeError, EchoError } from '../errors/echo-error.js';
import type { Logger } from '../logging/create-logger.js';
import { createAdvisoryLeadership } from './create-advisory-leadership.js';
import { createPostgresListener, type PostgresListener } from './create-postgres-listener.js';
import { createQueueHandOff } from './create-queue-hand-off.js';
import { createQueueBus, type QueueBus, type QueueBusOptions } from './create-queue-bus.js';
import type { HandOff } from './hand-off.js';
import type { LeadershipPort } from './leadership.js';

/** What cluster mode is opened with. */
export type ClusterOptions = {
  readonly url: string;
  readonly maxConcurrentTurns: number;
  readonly heartbeatSeconds: number;
  readonly leaderCheckSeconds: number;
  /** Longest a turn may run: its job may stay active that long (plus a margin) before pg-boss expires it. */
  readonly turnTimeoutMs: number;
  readonly logger: Logger;
  /** Parks a job instead of running it once this many of its starts were interrupted (`bus.parkAfterInterruptions`). */
  readonly quarantine?: QueueBusOptions['quarantine'];
  /** Retries of a turn that failed (threw), before it is given up; default 3, the first after 1 s, doubling up to 30 s. */
  readonly retry?: { readonly limit: number; readonly delaySeconds: number };
};

/** The shared parts of cluster mode: the queue every instance works, and the leadership locks. */
export type Cluster = {
  readonly bus: QueueBus;
  readonly leadership: LeadershipPort;
  readonly handOff: HandOff;
  /** The instance's one LISTEN connection: the queue's wake-ups, and whatever else the cluster hears (cancels). */
  readonly listener: PostgresListener;
  /** One line for the start-up lines. */
  readonly description: string;
  close(): Promise<void>;
};

/** The pg-boss schema and queue of echo-agent. */
export const clusterSchema = 'pgboss';
const eventQueue = 'echo-events';

/**
 * Starts pg-boss on the configured PostgreSQL (installing its schema on first use) and creates the
 * event queue. Any number of instances may do this at once: pg-boss migrates under a lock.
 */
export async function openCluster(options: ClusterOptions): Promise<Cluster> {
  const logger = options.logger.child({ component: 'cluster' });
  const boss = new PgBoss({
    connectionString: options.url,
    schema: clusterSchema,
    application_name: `echo-agent ${hostname()} ${process.pid}`,
    // The bus itself looks for lapsed heartbeats every second (a dead instance's turn moves within
    // heartbeatSeconds plus a few seconds); pg-boss's pass (expiry, queue statistics) runs less often, as a backstop.
    superviseIntervalSeconds: 10,
    monitorIntervalSeconds: 10,
    max: 10,
    openTelemetry: { enabled: false },
  });
  boss.on('error', (error) => logger.warn({ err: error }, 'job queue error'));
  try {
    await boss.start();
    await boss.createQueue(eventQueue, {
      policy: 'key_strict_fifo',
      heartbeatSeconds: options.heartbeatSeconds,
      // The turn timeout bounds every job; the margin lets the turn report its own timeout first.
      expireInSeconds: Math.ceil(options.turnTimeoutMs / 1000) + 60,
      // A job is parked before pg-boss would give it up: the parking is what tells the person.
      retryLimit: Math.max(options.retry?.limit ?? 3, options.quarantine?.after ?? 0),
      retryDelay: options.retry?.delaySeconds ?? 1,
      retryBackoff: true,
      retryDelayMax: 30,
      deleteAfterSeconds: 24 * 60 * 60,
      notify: true,
    });
    // A queue created by an earlier version: its inserts notify from now on (the wake costs no round trip of its own).
    await boss.updateQueue(eventQueue, { notify: true });
  } catch (error) {
    await boss.stop({ graceful: false, close: true }).catch(() => undefined);
    throw new EchoError('cluster-unavailable', `The job queue on PostgreSQL could not start: ${describeError(error)}`, { cause: error });
  }
  const listener = createPostgresListener({ url: options.url, logger });
  const bus = createQueueBus({ boss, listener, queue: eventQueue, schema: clusterSchema, maxConcurrentTurns: options.maxConcurrentTurns, heartbeatSeconds: options.heartbeatSeconds, logger, quarantine: options.quarantine });
  const leadership = createAdvisoryLeadership({ url: options.url, checkEveryMs: options.leaderCheckSeconds * 1000, logger });
  return {
    bus,
    leadership,
    handOff: createQueueHandOff(boss, logger),
    listener,
    description: `cluster mode: pg-boss queue "${eventQueue}" (one turn at a time per conversation across instances)`,
    async close() {
      await bus.close();
      await listener.close();
      await boss.stop({ graceful: false, close: true }).catch((error: unknown) => logger.warn({ err: error }, 'job queue did not stop cleanly'));
    },
  };
}
