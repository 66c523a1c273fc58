import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
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

/** A test file's scratch database: made before its tests, dropped after them; none (and `url()` empty) when PostgreSQL is down. */
export type FileScratchDatabase = {
  readonly up: boolean;
  /** Why the file's PostgreSQL suites skip, when they do. */
  readonly skipReason: string | undefined;
  url(): string;
};

/** Registers, at the top of a test file, the scratch database its tests share (see FileScratchDatabase). */
export async function useScratchDatabase(): Promise<FileScratchDatabase> {
  const up = await isPostgresUp();
  let database: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
  beforeAll(async () => {
    if (up) database = await createScratchDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });
  return { up, skipReason: up ? undefined : 'PostgreSQL is not running on 127.0.0.1:5432', url: () => database?.url ?? '' };
}
