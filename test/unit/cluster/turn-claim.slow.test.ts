// Fencing in cluster mode: a worker whose job was taken over (here: failed from outside, as pg-boss's
// supervisor does when heartbeats stop) learns it has lost the claim before it sends or writes, while the
// worker that runs the job again holds it.
import { PgBoss } from 'pg-boss';
import { describe, expect, it } from 'vitest';
import { isClaimHeld } from '../../../src/cluster/turn-claim.js';
import { clusterSchema, openCluster } from '../../../src/cluster/open-cluster.js';
import type { InboundEvent } from '../../../src/events/inbound-event.js';
import { createLogger } from '../../../src/logging/create-logger.js';
import { messageIn } from '../../contracts/bus-contract.js';
import { useScratchDatabase } from '../../contracts/scratch-postgres.js';
import { waitFor } from '../../fakes/start-test-app.js';

const scratch = await useScratchDatabase();
const up = scratch.up;

describe.skipIf(!up)(`the turn claim${up ? '' : ' (skipped: PostgreSQL is not running on 127.0.0.1:5432)'}`, () => {
  it('tells a stale worker it lost its job, and the worker that took it over that it holds it', async () => {
    const logger = await createLogger({ level: 'silent', pretty: false });
    const url = scratch.url();
    const cluster = await openCluster({ url, maxConcurrentTurns: 4, heartbeatSeconds: 10, leaderCheckSeconds: 1, turnTimeoutMs: 60_000, logger, retry: { limit: 1, delaySeconds: 0 } });
    const outside = new PgBoss({ connectionString: url, schema: clusterSchema, supervise: false, migrate: false });
    await outside.start();
    const attempts: Array<{ readonly redelivered: boolean; held?: boolean }> = [];
    let releaseFirst: () => void = () => undefined;
    const firstMayGoOn = new Promise<void>((resolve) => (releaseFirst = resolve));
    try {
      cluster.bus.subscribe(async (event: InboundEvent) => {
        const attempt: { readonly redelivered: boolean; held?: boolean } = { redelivered: event.redelivered === true };
        attempts.push(attempt);
        if (attempts.length === 1) await firstMayGoOn;
        attempt.held = await isClaimHeld();
      });
      const session = `telegram:${Math.random()}`;
      await cluster.bus.publish(messageIn(session, 'taken over'));
      await waitFor(() => (attempts.length === 1 ? true : undefined), 'the first attempt running');
      const [job] = await outside.findJobs('echo-events', { key: session });
      if (!job) throw new Error('the job is not in the queue');
      await outside.fail('echo-events', job.id, { error: 'taken over by the test' });
      await waitFor(() => (attempts[1]?.held !== undefined ? true : undefined), 'the second attempt to finish', 20_000);
      releaseFirst();
      await waitFor(() => (attempts[0]?.held !== undefined ? true : undefined), 'the first attempt to check its claim');
      expect(attempts).toEqual([
        { redelivered: false, held: false },
        { redelivered: true, held: true },
      ]);
    } finally {
      releaseFirst();
      await outside.stop({ graceful: false, close: true });
      await cluster.bus.drain(1000);
      await cluster.close();
    }
  }, 60_000);

  it('holds outside cluster mode (no claim on the path)', async () => {
    expect(await isClaimHeld()).toBe(true);
  });
});
