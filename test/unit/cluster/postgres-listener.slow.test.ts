// One LISTEN connection per instance for every cluster channel: notifications reach each channel's handlers, a
// connection the server kills is made again with its channels listened to again, and what was sent while it was
// away is announced as missed (onConnected), so the queue is looked at.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createPostgresListener } from '../../../src/cluster/create-postgres-listener.js';
import { createLogger } from '../../../src/logging/create-logger.js';
import { useScratchDatabase } from '../../contracts/scratch-postgres.js';
import { waitFor } from '../../fakes/start-test-app.js';

const scratch = await useScratchDatabase();
const up = scratch.up;

describe.skipIf(!up)(`the cluster listener${up ? '' : ' (skipped: PostgreSQL is not running on 127.0.0.1:5432)'}`, () => {
  it('carries two channels on one connection, and listens again after the server drops it', async () => {
    const logger = await createLogger({ level: 'silent', pretty: false });
    const url = scratch.url();
    const listener = createPostgresListener({ url, logger, retryEveryMs: 100 });
    const outsider = new pg.Client({ connectionString: url });
    await outsider.connect();
    const heard: string[] = [];
    let connections = 0;
    listener.onConnected(() => {
      connections += 1;
    });
    listener.listen('first_channel', (payload) => void heard.push(`first:${payload}`));
    listener.listen('second_channel', (payload) => void heard.push(`second:${payload}`));
    const ownConnections = async () =>
      Number((await outsider.query<{ count: string }>("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND application_name LIKE 'echo-agent listener %'")).rows[0]?.count);
    try {
      await waitFor(async () => {
        await outsider.query("SELECT pg_notify('first_channel', 'probe'), pg_notify('second_channel', 'probe')");
        return heard.includes('first:probe') && heard.includes('second:probe') ? true : undefined;
      }, 'both channels heard');
      expect(await ownConnections()).toBe(1);
      expect(connections).toBe(1);
      // A notify of its own goes over the same connection and is heard like anyone's.
      expect(await listener.notify('second_channel', 'from the listener')).toBe(true);
      await waitFor(() => (heard.includes('second:from the listener') ? true : undefined), 'its own notify heard');

      await outsider.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name LIKE 'echo-agent listener %'");
      await waitFor(() => (connections === 2 ? true : undefined), 'the listener connected again');
      heard.length = 0;
      await waitFor(async () => {
        await outsider.query("SELECT pg_notify('first_channel', 'after'), pg_notify('second_channel', 'after')");
        return heard.includes('first:after') && heard.includes('second:after') ? true : undefined;
      }, 'both channels heard again after the reconnection');
      expect(await ownConnections()).toBe(1);
    } finally {
      await listener.close();
      await outsider.end();
    }
    expect(await listener.notify('first_channel', 'closed')).toBe(false);
  });
});
