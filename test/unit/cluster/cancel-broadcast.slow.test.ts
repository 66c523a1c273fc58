// Cancels between instances over LISTEN/NOTIFY: each other instance hears a cancel once, the sender does not hear
// its own, and a notification on the channel that is not one of ours (anyone who can connect may NOTIFY) is dropped
// without stopping the listener.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createPostgresCancelBroadcast } from '../../../src/cluster/create-postgres-cancel-broadcast.js';
import { createPostgresListener } from '../../../src/cluster/create-postgres-listener.js';
import type { BroadcastCancel } from '../../../src/events/cancel-broadcast.js';
import { createLogger } from '../../../src/logging/create-logger.js';
import { useScratchDatabase } from '../../contracts/scratch-postgres.js';
import { waitFor } from '../../fakes/start-test-app.js';

const scratch = await useScratchDatabase();
const up = scratch.up;

describe.skipIf(!up)(`cancels between instances${up ? '' : ' (skipped: PostgreSQL is not running on 127.0.0.1:5432)'}`, () => {
  it('reaches every other instance once, not the sender, and survives payloads that are not ours', async () => {
    const logger = await createLogger({ level: 'silent', pretty: false });
    const url = scratch.url();
    const listeners = [0, 1, 2].map(() => createPostgresListener({ url, logger }));
    const instances = listeners.map((listener) => createPostgresCancelBroadcast({ listener, logger }));
    const heard: BroadcastCancel[][] = instances.map(() => []);
    for (const [index, instance] of instances.entries()) instance.subscribe((cancel) => void heard[index]?.push(cancel));
    const outsider = new pg.Client({ connectionString: url });
    await outsider.connect();
    try {
      // Each listener connects in the background: wait until all three hear a cancel from outside the instances.
      const probe = { from: 'outside', sessionKey: 'a2a-server:probe', by: 'probe', at: 1 };
      await waitFor(async () => {
        await outsider.query('SELECT pg_notify($1, $2)', ['echo_agent_turn_cancels', JSON.stringify(probe)]);
        return heard.every((list) => list.length > 0) ? true : undefined;
      }, 'every instance listening');
      // Probes sent by the later rounds of that wait may still arrive: only the cancel below is counted.
      const ours = (index: number) => (heard[index] ?? []).filter((cancel) => cancel.sessionKey !== probe.sessionKey);

      for (const payload of ['not json', '{}', JSON.stringify({ from: 'x', sessionKey: '', by: 'y', at: 1 }), JSON.stringify({ from: 'x', sessionKey: 's', by: 'y', at: 'soon' }), JSON.stringify({ from: 'x', sessionKey: 's'.repeat(5000), by: 'y', at: 1 })]) {
        await outsider.query('SELECT pg_notify($1, $2)', ['echo_agent_turn_cancels', payload]);
      }
      const cancel = { sessionKey: 'a2a-server:caller:task-1', by: 'caller', at: Date.now() };
      await instances[0]?.publish(cancel);
      await waitFor(() => (ours(1).length === 1 && ours(2).length === 1 ? true : undefined), 'the other two instances to hear the cancel');
      // A moment for a duplicate or a stray delivery to show.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(ours(1)).toEqual([cancel]);
      expect(ours(2)).toEqual([cancel]);
      expect(ours(0)).toEqual([]);
    } finally {
      await outsider.end();
      for (const instance of instances) await instance.close();
      for (const listener of listeners) await listener.close();
    }
  });
});
