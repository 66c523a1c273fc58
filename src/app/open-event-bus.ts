import type { MessageBus } from '../bus/message-bus.js';
import { createInProcessBus } from '../bus/create-in-process-bus.js';
import { createQueueIntake } from '../cluster/create-queue-intake.js';
import { type HandOff, noHandOff } from '../cluster/hand-off.js';
import { createSoleLeadership, type LeadershipPort } from '../cluster/leadership.js';
import type { Config } from '../config/config-schema.js';
import { createDurableIntake, type DurableIntake } from '../journal/create-durable-intake.js';
import { createInboundJournal, type JournalEntry } from '../journal/inbound-journal.js';
import type { Logger } from '../logging/create-logger.js';
import type { Store } from '../store/key-value-namespace.js';

/** How events travel: in this process (SQLite, Redis), or through the shared queue of cluster mode (PostgreSQL). */
export type EventBus = {
  readonly mode: 'single' | 'cluster';
  readonly bus: MessageBus;
  readonly intake: DurableIntake;
  readonly leadership: LeadershipPort;
  readonly handOff: HandOff;
  /** A start-up line, in cluster mode. */
  readonly description?: string;
  close(): Promise<void>;
};

/** True when the store url names PostgreSQL: the one store several instances may share. */
export function isClusterStore(url: string | undefined): boolean {
  return url?.startsWith('postgres://') === true || url?.startsWith('postgresql://') === true;
}

/** Opens the bus the store calls for. */
export async function openEventBus(input: { readonly config: Config; readonly store: Store; readonly logger: Logger }): Promise<EventBus> {
  const { config, store, logger } = input;
  const url = config.storage.url;
  if (url !== undefined && isClusterStore(url)) {
    // Loaded only when configured: one-process users never load pg-boss.
    const { openCluster } = await import('../cluster/open-cluster.js');
    const cluster = await openCluster({
      url,
      maxConcurrentTurns: config.bus.maxConcurrentTurns,
      heartbeatSeconds: config.cluster.heartbeatSeconds,
      leaderCheckSeconds: config.cluster.leaderCheckSeconds,
      turnTimeoutMs: config.agent.turnTimeoutMs,
      logger,
    });
    return { mode: 'cluster', bus: cluster.bus, intake: createQueueIntake(cluster.bus), leadership: cluster.leadership, handOff: cluster.handOff, description: cluster.description, close: () => cluster.close() };
  }
  const bus = createInProcessBus({ ...config.bus, logger });
  const intake = createDurableIntake({ bus, journal: createInboundJournal(store.namespace<JournalEntry>('inbound-journal')), logger });
  return { mode: 'single', bus, intake, leadership: createSoleLeadership(), handOff: noHandOff, close: async () => undefined };
}
