// Cluster mode's quarantine: the pg-boss job is the journal, and its retryCount (written by pg-boss before it hands
// the job out again) counts the interrupted starts. A turn that fails every time is run twice and then parked,
// not run a third time; a job that only failed once runs again as usual. (A dead instance's job comes back the
// same way, through its lapsed heartbeat: heartbeat-takeover.slow.test.ts.)
import { describe, expect, it } from 'vitest';
import { openCluster } from '../../../src/cluster/open-cluster.js';
import type { InboundEvent } from '../../../src/events/inbound-event.js';
import { createLogger } from '../../../src/logging/create-logger.js';
import { messageIn } from '../../contracts/bus-contract.js';
import { useScratchDatabase } from '../../contracts/scratch-postgres.js';
import { waitFor } from '../../fakes/start-test-app.js';

const scratch = await useScratchDatabase();
const up = scratch.up;

describe.skipIf(!up)(`cluster mode parks a job interrupted twice${up ? '' : ' (skipped: PostgreSQL is not running on 127.0.0.1:5432)'}`, () => {
  it('runs a failing turn twice, parks it on the third start, and runs a turn that failed once again', async () => {
    const logger = await createLogger({ level: 'silent', pretty: false });
    const parked: { id: string; attempts: number; redelivered?: boolean }[] = [];
    const cluster = await openCluster({
      url: scratch.url(),
      maxConcurrentTurns: 4,
      heartbeatSeconds: 10,
      leaderCheckSeconds: 3,
      turnTimeoutMs: 60_000,
      logger,
      retry: { limit: 3, delaySeconds: 1 },
      quarantine: { after: 2, park: async ({ event, attempts }) => void parked.push({ id: event.id, attempts, redelivered: event.redelivered }) },
    });
    try {
      const poison = messageIn('telegram:poison', 'fails every time');
      const flaky = messageIn('telegram:flaky', 'fails once');
      const starts: InboundEvent[] = [];
      cluster.bus.subscribe(async (event) => {
        starts.push(event);
        if (event.id === poison.id || starts.filter((started) => started.id === event.id).length === 1) throw new Error('the turn failed');
      });
      await cluster.bus.publish(poison);
      await cluster.bus.publish(flaky);
      await waitFor(() => parked.length > 0, 'the failing turn to be parked', 60_000);
      await waitFor(() => starts.filter((event) => event.id === flaky.id).length === 2, 'the flaky turn to run again', 60_000);
      await cluster.bus.idle();
      expect(parked).toEqual([{ id: poison.id, attempts: 2, redelivered: true }]);
      expect(starts.filter((event) => event.id === poison.id).map((event) => event.redelivered === true)).toEqual([false, true]);
      expect(starts.filter((event) => event.id === flaky.id)).toHaveLength(2);
    } finally {
      await cluster.bus.drain(1000);
      await cluster.close();
    }
  }, 120_000);
});
