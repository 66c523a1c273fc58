import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { isPortOpen } from '../fakes/is-port-open.js';

/** The PostgreSQL this machine kind runs (trust auth, user postgres); override with ECHO_TEST_POSTGRES_URL. */
export const postgresAdminUrl = process.env.ECHO_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Whether something answers on PostgreSQL's port, so a suite can skip with a clear message when it is down. */
export const isPostgresUp = (): Promise<boolean> => isPortOpen(Number(new URL(postgresAdminUrl).port || 5432));

/** A database of its own for one test run, dropped by `drop()`. */
export async function createScratchDatabase(): Promise<{ readonly url: string; drop(): Promise<void> }> {
  const name = `echo_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresAdminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(postgresAdminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const dropper = new pg.Client({ connectionString: postgresAdminUrl });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}
