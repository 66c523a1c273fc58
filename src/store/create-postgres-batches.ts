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
  /** Inserts one row unless a live one is there, under the key's advisory lock; resolves to whether it did. */
  insertIfAbsent(row: PostgresWrite): Promise<boolean>;
  /**
   * Adds the numbers of `row.json` to the fields of the live row (or inserts it), under the key's advisory lock;
   * resolves to the row's new value. Additions to one key in one batch are made as one.
   */
  addNumbers(row: PostgresWrite): Promise<unknown>;
};

const identity = (row: { readonly namespace: string; readonly key: string }) => `${row.namespace}\u0000${row.key}`;

/**
 * The rows of a batch as statement parameters, sorted by key: every multi-row statement takes its advisory locks and
 * row locks in that one order, so two batches (of any instances) never wait for each other in a cycle.
 */
function parametersOf(rows: readonly PostgresWrite[], now?: number): unknown[] {
  const sorted = [...rows].sort((left, right) => (left.namespace === right.namespace ? (left.key < right.key ? -1 : left.key > right.key ? 1 : 0) : left.namespace < right.namespace ? -1 : 1));
  return [sorted.map((row) => row.namespace), sorted.map((row) => row.key), sorted.map((row) => row.json), sorted.map((row) => row.expiresAt), ...(now === undefined ? [] : [now])];
}

/** The batch's rows in key order, each key's advisory lock (as `update` takes it) taken in that order before any row is written. */
const lockedInput = `WITH input AS (SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[]) WITH ORDINALITY AS rows (namespace, key, value, expires_at, position)),
  locked AS (SELECT count(pg_advisory_xact_lock(hashtextextended(namespace || ':' || key, 0))) AS locks FROM (SELECT namespace, key FROM input ORDER BY position) AS ordered)`;

/** Batches in flight at once per kind; the pool also serves updates, the queue's statements aside. */
const maxInFlight = 2;

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
      const found = new Map(result.rows.map((row) => [identity(row), row.value]));
      return requests.map((request) => found.get(identity(request)));
    },
    { maxInFlight },
  );
  const write = createBatcher<PostgresWrite, undefined>(
    async (requests) => {
      // One statement may not change a row twice: the last write of a key in the batch is the one made.
      const last = new Map(requests.map((request) => [identity(request), request]));
      await pool.query(
        `INSERT INTO echo_store (namespace, key, value, expires_at)
         SELECT namespace, key, value::jsonb, expires_at FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[]) WITH ORDINALITY AS rows (namespace, key, value, expires_at, position) ORDER BY position
         ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at`,
        parametersOf([...last.values()]),
      );
      return requests.map(() => undefined);
    },
    { maxInFlight },
  );
  const insertIfAbsent = createBatcher<PostgresWrite, boolean>(
    async (requests) => {
      // The first request of a key in the batch is the one that may insert; the later ones find it there.
      const first = new Map<string, PostgresWrite>();
      for (const request of requests) if (!first.has(identity(request))) first.set(identity(request), request);
      const result = await pool.query<{ namespace: string; key: string }>(
        `${lockedInput}
         INSERT INTO echo_store (namespace, key, value, expires_at)
         SELECT input.namespace, input.key, input.value::jsonb, input.expires_at FROM input CROSS JOIN locked ORDER BY input.position
         ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at
         WHERE echo_store.expires_at IS NOT NULL AND echo_store.expires_at <= $5
         RETURNING namespace, key`,
        parametersOf([...first.values()], Date.now()),
      );
      const inserted = new Set(result.rows.map(identity));
      return requests.map((request) => first.get(identity(request)) === request && inserted.has(identity(request)));
    },
    { maxInFlight },
  );
  const addNumbers = createBatcher<PostgresWrite, unknown>(
    async (requests) => {
      const merged = new Map<string, { row: PostgresWrite; amounts: Record<string, number> }>();
      for (const request of requests) {
        const amounts = JSON.parse(request.json) as Record<string, number>;
        const earlier = merged.get(identity(request));
        if (!earlier) {
          merged.set(identity(request), { row: request, amounts });
          continue;
        }
        for (const [field, amount] of Object.entries(amounts)) earlier.amounts[field] = (earlier.amounts[field] ?? 0) + amount;
        earlier.row = { ...request, json: '', expiresAt: request.expiresAt ?? earlier.row.expiresAt };
      }
      const rows = [...merged.values()].map(({ row, amounts }) => ({ ...row, json: JSON.stringify(amounts) }));
      // A row past its expiry counts as zeros; without a new expiry a row keeps the one it had.
      const result = await pool.query<{ namespace: string; key: string; value: unknown }>(
        `${lockedInput}
         INSERT INTO echo_store (namespace, key, value, expires_at)
         SELECT input.namespace, input.key, input.value::jsonb, input.expires_at FROM input CROSS JOIN locked ORDER BY input.position
         ON CONFLICT (namespace, key) DO UPDATE SET
           value = CASE WHEN echo_store.expires_at IS NOT NULL AND echo_store.expires_at <= $5 THEN excluded.value
             ELSE echo_store.value || (SELECT jsonb_object_agg(field, COALESCE((echo_store.value ->> field)::numeric, 0) + amount::numeric) FROM jsonb_each_text(excluded.value) AS amounts (field, amount)) END,
           expires_at = CASE WHEN excluded.expires_at IS NOT NULL THEN excluded.expires_at WHEN echo_store.expires_at IS NOT NULL AND echo_store.expires_at <= $5 THEN NULL ELSE echo_store.expires_at END
         RETURNING namespace, key, value`,
        parametersOf(rows, Date.now()),
      );
      const written = new Map(result.rows.map((row) => [identity(row), row.value]));
      return requests.map((request) => written.get(identity(request)));
    },
    { maxInFlight },
  );
  return { read: (namespace, key) => read({ namespace, key }), write, insertIfAbsent, addNumbers };
}
