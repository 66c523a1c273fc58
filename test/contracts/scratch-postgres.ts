import { randomBytes } from 'node:crypto';
import { createConnection } from 'node:net';
import pg from 'pg';

/** The PostgreSQL this machine kind runs (trust auth, user postgres); override with ECHO_TEST_POSTGRES_URL. */
export const postgresAdminUrl = 'postgres://postgres@127.0.0.1:5432/postgres';

/** Whether something answers on PostgreSQL's port, so a suite can skip with a clear message when it is down. */
export async function isPostgresUp(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port: 5432 });
    socket.setTimeout(500);
    socket.once('connect', () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/** A database of its own for one test run, dropped by `drop()`. */
export async function createScratchDatabase(): Promise<{ readonly url: string; drop(): Promise<void> }> {
  const name = `echo_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresAdminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  return {
    url: `postgres://postgres@127.0.0.1:5432/${name}`,
    async drop() {
      const dropper = new pg.Client({ connectionString: postgresAdminUrl });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}
