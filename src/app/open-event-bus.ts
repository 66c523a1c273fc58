import type { MessageBus } from '../bus/message-bus.js';
import { createInProcessBus } from '../bus/create-in-process-bus.js';
import { createQueueIntake } from '../cluster/create-queue-intake.js';
import { type HandOff, noHandOff } from '../cluster/hand-off.js';
import { type CancelBroadcast, noCancelBroadcast } from '../events/cancel-broadcast.js';
import { createSoleLeadership, type LeadershipPort } from '../cluster/leadership.js';
import type { Config } from '../config/config-schema.js';
import { createDurableIntake, type DurableIntake, type ParkTurn } from '../journal/create-durable-intake.js';
import type { InboundJournal } from '../journal/inbound-journal.js';
import type { Logger } from '../logging/create-logger.js';

/** How events travel: in this process (SQLite, Redis), or through the shared queue of cluster mode (PostgreSQL). */
export type EventBus = {
  readonly mode: 'single' | 'cluster';
  readonly bus: MessageBus;
  readonly intake: DurableIntake;
  readonly leadership: LeadershipPort;
  readonly handOff: HandOff;
  /** Cancels between instances (cluster mode); nothing to tell in one process. */
  readonly cancels: CancelBroadcast;
  /** A start-up line, in cluster mode. */
  readonly description?: string;
  close(): Promise<void>;
};

/** True when the store url names PostgreSQL: the one store several instances may share. */
export function isClusterStore(url: string | undefined): boolean {
  return url?.startsWith('postgres://') === true || url?.startsWith('postgresql://') === true;
}

/** Opens the bus the store calls for. */
export async function openEventBus(input: { readonly config: Config; readonly logger: Logger; readonly journal: InboundJournal; readonly park: ParkTurn }): Promise<EventBus> {
  const { config, logger, journal, park } = input;
  const parkAfter = config.bus.parkAfterInterruptions;
  const url = config.storage.url;
  if (url !== undefined && isClusterStore(url)) {
    // Loaded only when configured: one-process users never load pg-boss.
    const [{ openCluster }, { createPostgresCancelBroadcast }] = await Promise.all([import('../cluster/open-cluster.js'), import('../cluster/create-postgres-cancel-broadcast.js')]);
    const cluster = await openCluster({
      url,
      maxConcurrentTurns: config.bus.maxConcurrentTurns,
      heartbeatSeconds: config.cluster.heartbeatSeconds,
      leaderCheckSeconds: config.cluster.leaderCheckSeconds,
      turnTimeoutMs: config.agent.turnTimeoutMs,
      quarantine: { after: parkAfter, park },
      logger,
    });
    // The journal namespace holds only the events an operator put back (`npm run parked retry`) in cluster mode.
    const intake = createQueueIntake(cluster.bus, { journal, logger });
    const cancels = createPostgresCancelBroadcast({ listener: cluster.listener, logger: logger.child({ component: 'cluster' }) });
    return {
      mode: 'cluster',
      bus: cluster.bus,
      intake,
      leadership: cluster.leadership,
      handOff: cluster.handOff,
      cancels,
      description: cluster.description,
      async close() {
        await cancels.close();
        await cluster.close();
      },
    };
  }
  const bus = createInProcessBus({ ...config.bus, logger });
  const intake = createDurableIntake({ bus, journal, logger, parkAfter, park });
  return { mode: 'single', bus, intake, leadership: createSoleLeadership(), handOff: noHandOff, cancels: noCancelBroadcast, close: async () => undefined };
}
