import pg from 'pg';
import { describeError } from '../errors/echo-error.js';
import { clusterSchema } from './open-cluster.js';

/** What `npm run doctor` learns about the PostgreSQL of cluster mode. */
export type PostgresDescription =
  | { readonly ok: true; readonly version: string; readonly major: number; readonly queueInstalled: boolean }
  | { readonly ok: false; readonly error: string };

/** The oldest PostgreSQL cluster mode is tested against and pg-boss supports. */
export const oldestPostgresMajor = 13;

/** Connects once and reads the server version and whether the job queue's schema is installed yet. */
export async function describePostgres(url: string, timeoutMs: number): Promise<PostgresDescription> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const version = (await client.query<{ server_version: string }>('SHOW server_version')).rows[0]?.server_version ?? 'unknown';
    const installed = await client.query('SELECT 1 FROM information_schema.schemata WHERE schema_name = $1', [clusterSchema]);
    return { ok: true, version, major: Number.parseInt(version, 10), queueInstalled: (installed.rowCount ?? 0) > 0 };
  } catch (error) {
    return { ok: false, error: describeError(error) };
  } finally {
    await client.end().catch(() => undefined);
  }
}
