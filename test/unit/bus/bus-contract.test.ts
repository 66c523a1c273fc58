import { createInProcessBus } from '../../../src/bus/create-in-process-bus.js';
import { openCluster } from '../../../src/cluster/open-cluster.js';
import { createLogger } from '../../../src/logging/create-logger.js';
import { describeBusContract } from '../../contracts/bus-contract.js';
import { useScratchDatabase } from '../../contracts/scratch-postgres.js';

const logger = await createLogger({ level: 'silent', pretty: false });
const scratch = await useScratchDatabase();
const up = scratch.up;

describeBusContract('in-process', async () => {
  const bus = createInProcessBus({ maxConcurrentTurns: 8, maxQueued: 100, maxQueuedPerSession: 20, logger });
  return { bus, sweep: async () => undefined, close: async () => void (await bus.drain(1000)) };
});

describeBusContract(
  'pg-boss queue (cluster mode)',
  async () => {
    // Retries without delay: the contract is about order and blocking, not about how long pg-boss waits.
    const cluster = await openCluster({ url: scratch.url(), maxConcurrentTurns: 8, heartbeatSeconds: 10, leaderCheckSeconds: 1, turnTimeoutMs: 60_000, logger, retry: { limit: 1, delaySeconds: 0 } });
    return {
      bus: cluster.bus,
      sweep: async () => void (await cluster.bus.unblockKeys()),
      async close() {
        await cluster.bus.drain(1000);
        await cluster.close();
      },
    };
  },
  { skip: up ? undefined : 'PostgreSQL is not running on 127.0.0.1:5432' },
);
