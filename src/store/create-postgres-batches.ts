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
  /** The compare-and-set of `update`: reads the live row under the key's advisory lock, writes what the updater made of it. */
  update(request: PostgresUpdate): Promise<UpdateOutcome>;
};

/** One read-modify-write of a row; `ttlMs` undefined keeps the row's expiry. */
export type PostgresUpdate = { readonly namespace: string; readonly key: string; readonly updater: (current: unknown) => unknown; readonly ttlMs: number | undefined };

/** What an update wrote, or the error its own updater threw (the batch's other updates go on). */
export type UpdateOutcome = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: unknown };

/** Key order of a batch's rows (by namespace, then key). */
const byKey = (left: { readonly namespace: string; readonly key: string }, right: { readonly namespace: string; readonly key: string }) =>
  left.namespace === right.namespace ? (left.key < right.key ? -1 : left.key > right.key ? 1 : 0) : left.namespace < right.namespace ? -1 : 1;

const identity = (row: { readonly namespace: string; readonly key: string }) => `${row.namespace}\u0000${row.key}`;

/**
 * The rows of a batch as statement parameters, sorted by key: every multi-row statement takes its advisory locks and
 * row locks in that one order, so two batches (of any instances) never wait for each other in a cycle.
 */
function parametersOf(rows: readonly PostgresWrite[], now?: number): unknown[] {
  const sorted = [...rows].sort(byKey);
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
  /**
   * Updates made while others are in flight share one transaction of two round trips (each several statements in
   * one simple query, values escaped as literals): BEGIN, every key's advisory lock in key order and one read of
   * the rows; then the writes and COMMIT. The advisory lock serialises every update of a key across all instances
   * until COMMIT, also while its row does not exist yet. A value an updater returned unchanged is not written again.
   */
  const update = createBatcher<PostgresUpdate, UpdateOutcome>(
    async (requests) => {
      const client = await pool.connect();
      const literal = (text: string) => client.escapeLiteral(text);
      const rowOf = (request: PostgresUpdate) => `namespace = ${literal(request.namespace)} AND key = ${literal(request.key)}`;
      const sorted = [...requests].sort(byKey);
      try {
        const locks = sorted.map((request) => `SELECT pg_advisory_xact_lock(hashtextextended(${literal(`${request.namespace}:${request.key}`)}, 0));`).join(' ');
        const wanted = sorted.map((request) => `(${literal(request.namespace)}, ${literal(request.key)})`).join(', ');
        const results = (await client.query(
          `BEGIN; ${locks} SELECT namespace, key, value, expires_at FROM echo_store WHERE (namespace, key) IN (${wanted}) AND (expires_at IS NULL OR expires_at > ${Date.now()})`,
        )) as unknown as ReadonlyArray<pg.QueryResult<{ namespace: string; key: string; value: unknown; expires_at: string | null }>>;
        const found = new Map((results.at(-1)?.rows ?? []).map((row) => [identity(row), row]));
        const writes: string[] = [];
        const outcomes = new Map<PostgresUpdate, UpdateOutcome>();
        for (const request of sorted) {
          const current = found.get(identity(request));
          let next: unknown;
          try {
            next = request.updater(current?.value);
          } catch (error) {
            outcomes.set(request, { ok: false, error });
            continue;
          }
          outcomes.set(request, { ok: true, value: next });
          if (next === undefined) {
            if (current) writes.push(`DELETE FROM echo_store WHERE ${rowOf(request)};`);
          } else if (next !== current?.value || request.ttlMs !== undefined) {
            // Without a new ttl the record keeps the expiry it had.
            const expiresAt = request.ttlMs !== undefined ? Date.now() + request.ttlMs : current?.expires_at === undefined || current.expires_at === null ? null : Number(current.expires_at);
            writes.push(
              `INSERT INTO echo_store (namespace, key, value, expires_at) VALUES (${literal(request.namespace)}, ${literal(request.key)}, ${literal(JSON.stringify(next))}::jsonb, ${expiresAt ?? 'NULL'}) ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at;`,
            );
          }
        }
        await client.query(`${writes.join(' ')} COMMIT`);
        return requests.map((request) => outcomes.get(request) ?? { ok: false, error: new Error('update not run') });
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    { maxInFlight },
  );
  return { read: (namespace, key) => read({ namespace, key }), write, insertIfAbsent, addNumbers, update };
}
