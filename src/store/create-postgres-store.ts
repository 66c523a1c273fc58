import pg from 'pg';
import { describeError, EchoError } from '../errors/echo-error.js';
import { createKeyLock } from './key-lock.js';
import { createPostgresBatches } from './create-postgres-batches.js';
import { createStoreGuard } from './create-store-guard.js';
import type { KeyValueNamespace, Store } from './key-value-namespace.js';

/** Where and how to open the PostgreSQL store. */
export type PostgresStoreOptions = {
  /** `postgres://user@host:port/database` */
  readonly url: string;
  readonly probeTimeoutMs?: number;
  readonly operationTimeoutMs?: number;
  readonly onError?: (error: EchoError) => void;
  /** Connections in the pool; default 10. */
  readonly maxConnections?: number;
};

const schema = `
CREATE TABLE IF NOT EXISTS echo_store (
  namespace text NOT NULL,
  key text NOT NULL,
  value jsonb NOT NULL,
  expires_at bigint,
  PRIMARY KEY (namespace, key)
);
CREATE INDEX IF NOT EXISTS echo_store_expires ON echo_store (expires_at) WHERE expires_at IS NOT NULL;
`;


/** `postgres://user:***@host/db`: the password never reaches a log line. */
function describeUrl(url: string): string {
  return `postgres ${url.replace(/\/\/([^:@/]*):[^@]*@/, '//$1:***@')}`;
}

/**
 * The store for cluster mode: one table in PostgreSQL, shared by every instance. `update` is a real
 * compare-and-set across processes (a transaction holding an advisory lock on the key), which keyv
 * over PostgreSQL cannot give. Expiry times are stored and compared in milliseconds of the instances' clocks.
 */
export async function createPostgresStore(options: PostgresStoreOptions): Promise<Store> {
  const description = describeUrl(options.url);
  const pool = new pg.Pool({ connectionString: options.url, max: options.maxConnections ?? 10, connectionTimeoutMillis: options.probeTimeoutMs ?? 5000 });
  // An idle client that loses its connection must not crash the process: the next call fails and says so.
  pool.on('error', () => undefined);
  try {
    await pool.query(schema);
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new EchoError('store-unavailable', `The store (${description}) is not usable: ${describeError(error)}`, { cause: error });
  }
  const guard = createStoreGuard({ description, operationTimeoutMs: options.operationTimeoutMs ?? 5000, onError: options.onError });
  const withLock = createKeyLock();
  // Single-row reads and writes made while others are in flight go together, one statement each kind (group commit).
  const batches = createPostgresBatches(pool);
  // Rows past their expiry count as absent until the purge deletes them ($3 is the caller's clock).
  const live = 'AND (expires_at IS NULL OR expires_at > $3)';
  const expiryOf = (ttlMs: number | undefined) => (typeof ttlMs === 'number' ? Date.now() + ttlMs : null);
  let closed = false;

  function namespace<Value>(name: string): KeyValueNamespace<Value> {
    return {
      get: (key) =>
        guard.run(`reading ${name}`, async () => {
          return (await batches.read(name, key)) as Value | undefined;
        }),
      set: (key, value, ttlMs) =>
        guard.run(`saving ${name}`, async () => {
          await batches.write({ namespace: name, key, json: JSON.stringify(value), expiresAt: expiryOf(ttlMs) });
        }),
      delete: (key) =>
        guard.run(`deleting from ${name}`, async () => {
          const result = await pool.query(`DELETE FROM echo_store WHERE namespace = $1 AND key = $2 ${live}`, [name, key, Date.now()]);
          return (result.rowCount ?? 0) > 0;
        }),
      // Both under the key's advisory lock, as `update` takes it (no update reads the key absent and then overwrites
      // the row), in one statement; several made at once go together.
      setIfAbsent: (key, value, ttlMs) =>
        withLock(`${name}:${key}`, () => guard.run(`saving ${name}`, () => batches.insertIfAbsent({ namespace: name, key, json: JSON.stringify(value), expiresAt: expiryOf(ttlMs) }))),
      update: (key, updater, ttlMs) =>
        withLock(`${name}:${key}`, () =>
          guard.run(`updating ${name}`, async () => {
            const outcome = await batches.update({ namespace: name, key, updater: (current) => updater(current as Value | undefined), ttlMs });
            if (!outcome.ok) throw outcome.error;
            return outcome.value as Value | undefined;
          }),
        ),
      // No read first: the upsert under the key's advisory lock, which `update` holds from its read to its write, so
      // neither loses the other's change; several adds made at once go together in one statement.
      add: (key, amounts, ttlMs) =>
        withLock(`${name}:${key}`, () =>
          guard.run(`adding to ${name}`, async () => ((await batches.addNumbers({ namespace: name, key, json: JSON.stringify(amounts), expiresAt: expiryOf(ttlMs) })) ?? amounts) as Value),
        ),
      entries: () =>
        guard.run(`listing ${name}`, async () => {
          const result = await pool.query<{ key: string; value: Value }>('SELECT key, value FROM echo_store WHERE namespace = $1 AND (expires_at IS NULL OR expires_at > $2)', [name, Date.now()]);
          return result.rows.map((row) => [row.key, row.value] as const);
        }),
    };
  }

  return {
    description,
    namespace,
    purgeExpired: () =>
      guard.run('purging expired rows', async () => {
        const result = await pool.query('DELETE FROM echo_store WHERE expires_at IS NOT NULL AND expires_at < $1', [Date.now()]);
        return result.rowCount ?? 0;
      }),
    countRows: () =>
      guard.run('counting rows', async () => {
        const result = await pool.query<{ rows: string }>('SELECT count(*) AS rows FROM echo_store');
        return Number(result.rows[0]?.rows ?? 0);
      }),
    health: guard.health,
    async check(timeoutMs = 1000) {
      await guard.run('answering a health check', () => pool.query('SELECT 1'), timeoutMs).catch(() => undefined);
      return guard.health();
    },
    async close() {
      if (closed) return;
      closed = true;
      guard.dispose();
      await pool.end();
    },
  };
}
