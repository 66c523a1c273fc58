import type pg from 'pg';
import { createBatcher } from './create-batcher.js';

/** One row to write: its namespace, key, value as JSON text, and expiry (ms since the epoch, or null). */
export type PostgresWrite = { readonly namespace: string; readonly key: string; readonly json: string; readonly expiresAt: number | null };

/** Reads and writes of single rows that go to PostgreSQL together when several are made at once. */
export type PostgresBatches = {
  /** The live value of one row, or undefined. */
  read(namespace: string, key: string): Promise<unknown>;
  /** Writes one row (insert or replace). */
  write(row: PostgresWrite): Promise<void>;
};

/** Batches in flight at once per kind; the pool also serves updates, the queue's statements aside. */
const maxInFlight = 3;

/**
 * Group commit over the store's pool: a read or write made while fewer than `maxInFlight` of its kind are in
 * flight goes at once, and those made meanwhile go together in one statement (a multi-row SELECT or INSERT).
 * Under a burst of turns that turns many round trips (and commits) into a few; with no load nothing waits.
 */
export function createPostgresBatches(pool: pg.Pool): PostgresBatches {
  const read = createBatcher<{ readonly namespace: string; readonly key: string }, unknown>(
    async (requests) => {
      const result = await pool.query<{ namespace: string; key: string; value: unknown }>(
        'SELECT namespace, key, value FROM echo_store WHERE (namespace, key) IN (SELECT * FROM unnest($1::text[], $2::text[])) AND (expires_at IS NULL OR expires_at > $3)',
        [requests.map((request) => request.namespace), requests.map((request) => request.key), Date.now()],
      );
      const found = new Map(result.rows.map((row) => [`${row.namespace}\u0000${row.key}`, row.value]));
      return requests.map((request) => found.get(`${request.namespace}\u0000${request.key}`));
    },
    { maxInFlight },
  );
  const write = createBatcher<PostgresWrite, undefined>(
    async (requests) => {
      // One statement may not change a row twice: the last write of a key in the batch is the one made.
      const last = new Map(requests.map((request) => [`${request.namespace}\u0000${request.key}`, request]));
      const rows = [...last.values()];
      await pool.query(
        `INSERT INTO echo_store (namespace, key, value, expires_at)
         SELECT namespace, key, value::jsonb, expires_at FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[]) AS rows (namespace, key, value, expires_at)
         ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at`,
        [rows.map((row) => row.namespace), rows.map((row) => row.key), rows.map((row) => row.json), rows.map((row) => row.expiresAt)],
      );
      return requests.map(() => undefined);
    },
    { maxInFlight },
  );
  return { read: (namespace, key) => read({ namespace, key }), write };
}
