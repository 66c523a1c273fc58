import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Keyv } from 'keyv';
import { EchoError } from '../errors/echo-error.js';
import { type Amounts, addAmounts } from './add-amounts.js';
import { type BatchWriter, collapseWrites } from './collapse-writes.js';
import { createSqliteKeyvStore } from './create-sqlite-keyv-store.js';
import { openSqliteConnection, type SqliteConnection } from './open-sqlite-connection.js';

/** One `add` to a record of numbers: the amounts, and its new expiry (ms since the epoch; undefined keeps the one it had). */
export type AddOperation = { readonly key: string; readonly amounts: Amounts; readonly expires: number | undefined };

/** A row as SQLite returns it: the key and keyv's serialized value. */
type RawRow = { readonly key: string; readonly value: string };

/** One row to write only if its key has no live row: the value already serialized for the backend. */
export type InsertIfAbsent = { readonly key: string; readonly serialized: string };

/** A raw stored row: keyv keeps the value beside its expiry. */
export type StoredRow = { readonly key: string; readonly value: unknown; readonly expires?: number };

/** One keyv backend with the few operations keyv itself does not offer: listing a prefix, purging, counting. */
export type KeyvBackend = {
  readonly keyv: Keyv;
  readonly description: string;
  /** The SQLite file (SQLite only). */
  readonly localFile?: string;
  /** Rows whose key starts with `prefix`, expired ones included. */
  scan(prefix: string): Promise<readonly StoredRow[]>;
  /** Deletes rows whose expiry has passed; resolves to how many went. */
  purgeExpired(now: number): Promise<number>;
  countRows(): Promise<number>;
  /** Writes a batch as one statement per kind, where the backend can (SQLite); keyv's one-by-one path otherwise. */
  readonly writeBatch?: BatchWriter;
  /** Reads a batch of keys in one statement, where the backend can (SQLite); expired rows included. */
  readonly readBatch?: (keys: readonly string[]) => Promise<readonly (StoredRow | undefined)[]>;
  /**
   * Writes each row only where its key has no live row, in one statement without reading first, where the backend can
   * (SQLite); resolves to, per row, whether it was written. Of two rows for one key in a batch, the first decides.
   */
  readonly insertIfAbsentBatch?: (rows: readonly InsertIfAbsent[]) => Promise<readonly boolean[]>;
  /** Adds a batch of amounts in one statement without reading first, where the backend can (SQLite); resolves to each record's value afterwards. */
  readonly addBatch?: (operations: readonly AddOperation[]) => Promise<readonly unknown[]>;
};

/**
 * An upsert that adds the numbers of each row (`[key, '{"value":{...amounts},"expires":n}']`) to the live record's,
 * field by field; an expired record counts as missing. Without a new expiry the record keeps its own.
 */
const addSql = `INSERT INTO keyv (key, value) SELECT row.value ->> 0, row.value ->> 1 FROM json_each(?) AS row WHERE true
ON CONFLICT(key) DO UPDATE SET value = CASE
  WHEN keyv.value ->> '$.expires' IS NOT NULL AND keyv.value ->> '$.expires' <= ? THEN excluded.value
  ELSE json_object(
    'value', json((SELECT json_group_object(field, total) FROM (SELECT field.key AS field, sum(field.value) AS total FROM (SELECT key, value FROM json_each(keyv.value, '$.value') UNION ALL SELECT key, value FROM json_each(excluded.value, '$.value')) AS field GROUP BY field.key))),
    'expires', coalesce(excluded.value ->> '$.expires', keyv.value ->> '$.expires'))
END
RETURNING key, value`;

/** Inserts the rows (`[key, serialized]`) whose key has no row, or only an expired one; returns the keys it wrote. */
const insertIfAbsentSql = `INSERT INTO keyv (key, value) SELECT row.value ->> 0, row.value ->> 1 FROM json_each(?) AS row WHERE true
ON CONFLICT(key) DO UPDATE SET value = excluded.value WHERE keyv.value ->> '$.expires' IS NOT NULL AND keyv.value ->> '$.expires' <= ?
RETURNING key`;

/** Values are plain JSON (no Buffers or BigInts are stored): JSON.stringify is several times faster than keyv's own serializer. */
const plainJson = { serialize: JSON.stringify, deserialize: JSON.parse } as const;

/** Opens keyv over the backend the url names: a SQLite file (default), Redis, or memory. */
export async function openKeyvBackend(input: { readonly url: string; readonly dataDir: string }): Promise<KeyvBackend> {
  const { url } = input;
  if (url.startsWith('redis://') || url.startsWith('rediss://')) return openRedis(url);
  if (url === 'memory:') return openMemory();
  if (url === '' || url.startsWith('sqlite://')) {
    const file = url === '' ? join(input.dataDir, 'echo.sqlite') : url.slice('sqlite://'.length);
    if (url === '') mkdirSync(input.dataDir, { recursive: true });
    return openSqlite(file);
  }
  throw new EchoError('store-url-invalid', `storage.url must be empty, sqlite://FILE, redis://HOST:PORT or postgres://USER@HOST:PORT/DATABASE (got a ${url.split(':')[0]} url).`);
}

async function openSqlite(file: string): Promise<KeyvBackend> {
  const connection = await openSqliteConnection(file, { busyTimeoutMs: 10_000 });
  const keyv = new Keyv({ store: createSqliteKeyvStore(connection), useKeyPrefix: false, throwOnErrors: true, ...plainJson });
  return {
    keyv,
    description: `sqlite ${file}`,
    localFile: file,
    async scan(prefix) {
      // substr, not LIKE: namespace names contain `_` and `-`, which LIKE would read as patterns.
      const rows = await connection.query<RawRow>('SELECT key, value FROM keyv WHERE substr(key, 1, ?) = ?', [prefix.length, prefix]);
      return rows.map((row) => parseRow(row.key, row.value));
    },
    async purgeExpired(now) {
      const before = await countSqlite(connection);
      await connection.query("DELETE FROM keyv WHERE json_extract(value, '$.expires') IS NOT NULL AND json_extract(value, '$.expires') < ?", [now]);
      return before - (await countSqlite(connection));
    },
    countRows: () => countSqlite(connection),
    async readBatch(keys) {
      const rows = await connection.query<RawRow>('SELECT key, value FROM keyv WHERE key IN (SELECT value FROM json_each(?))', [JSON.stringify([...new Set(keys)])]);
      const found = new Map(rows.map((row) => [row.key, parseRow(row.key, row.value)]));
      return keys.map((key) => found.get(key));
    },
    async addBatch(operations) {
      // One row per key: adds to one key in the same batch are summed first (an upsert may not touch a row twice).
      const byKey = new Map<string, { amounts: Amounts; expires: number | undefined }>();
      for (const operation of operations) {
        const earlier = byKey.get(operation.key);
        byKey.set(operation.key, earlier === undefined ? { amounts: operation.amounts, expires: operation.expires } : { amounts: addAmounts(earlier.amounts, operation.amounts), expires: operation.expires ?? earlier.expires });
      }
      const rows = [...byKey].map(([key, { amounts, expires }]) => [key, JSON.stringify({ value: amounts, expires })]);
      const stored = await connection.query<RawRow>(addSql, [JSON.stringify(rows), Date.now()]);
      const found = new Map(stored.map((row) => [row.key, parseRow(row.key, row.value).value]));
      return operations.map((operation) => found.get(operation.key));
    },
    async insertIfAbsentBatch(rows) {
      // The first row of each key goes to the statement; a later one for the same key is not written.
      const firsts = new Map<string, InsertIfAbsent>();
      for (const row of rows) if (!firsts.has(row.key)) firsts.set(row.key, row);
      const written = await connection.query<{ key: string }>(insertIfAbsentSql, [JSON.stringify([...firsts.values()].map((row) => [row.key, row.serialized])), Date.now()]);
      const writtenKeys = new Set(written.map((row) => row.key));
      return rows.map((row) => firsts.get(row.key) === row && writtenKeys.has(row.key));
    },
    async writeBatch(operations) {
      const { last, isLast } = collapseWrites(operations);
      const sets = last.filter((operation) => operation.kind === 'set').map((operation) => [operation.key, operation.kind === 'set' ? operation.serialized : '']);
      const deletes = last.filter((operation) => operation.kind === 'delete').map((operation) => operation.key);
      if (sets.length > 0) {
        // `WHERE true` keeps SQLite from reading ON CONFLICT as part of the SELECT.
        await connection.query('INSERT INTO keyv (key, value) SELECT value ->> 0, value ->> 1 FROM json_each(?) WHERE true ON CONFLICT(key) DO UPDATE SET value = excluded.value', [JSON.stringify(sets)]);
      }
      const deleted = new Set<string>();
      if (deletes.length > 0) {
        const rows = await connection.query<{ key: string }>('DELETE FROM keyv WHERE key IN (SELECT value FROM json_each(?)) RETURNING key', [JSON.stringify(deletes)]);
        for (const row of rows) deleted.add(row.key);
      }
      return operations.map((operation, index) => !isLast[index] || operation.kind === 'set' || deleted.has(operation.key));
    },
  };
}

async function countSqlite(connection: SqliteConnection): Promise<number> {
  const rows = await connection.query<{ rows: number }>('SELECT COUNT(*) AS rows FROM keyv');
  return rows[0]?.rows ?? 0;
}

async function openRedis(url: string): Promise<KeyvBackend> {
  // Loaded only when configured: SQLite users never pay for the Redis client at start-up.
  const { default: KeyvRedis } = await import('@keyv/redis');
  // The adapter swallows command errors by default (a failed SET resolves, a failed GET reads as "missing"):
  // a write lost while Redis goes away would count as saved. Errors must reach keyv, and from there the caller.
  const adapter = new KeyvRedis(url, { throwOnErrors: true, throwOnConnectError: true });
  const keyv = new Keyv({ store: adapter, useKeyPrefix: false, throwOnErrors: true, ...plainJson });
  return {
    keyv,
    description: `redis ${url.replace(/\/\/[^@]*@/, '//***@')}`,
    async scan(prefix) {
      type ScanClient = {
        scan(cursor: string, options: { MATCH: string; COUNT: number }): Promise<{ cursor: string | number; keys: string[] }>;
        mGet(keys: string[]): Promise<(string | null)[]>;
      };
      const client = (await adapter.getClient()) as unknown as ScanClient;
      const rows: StoredRow[] = [];
      // keyv gives the adapter a namespace of its own (`keyv::`) in front of every key.
      const base = adapter.namespace ? `${adapter.namespace}${adapter.keyPrefixSeparator}` : '';
      // Glob characters in a namespace name would widen the match: escape them.
      const match = `${base}${prefix.replace(/[*?[\]\\]/g, (character) => `\\${character}`)}*`;
      let cursor = '0';
      do {
        const page = await client.scan(cursor, { MATCH: match, COUNT: 500 });
        cursor = String(page.cursor);
        if (page.keys.length === 0) continue;
        const values = await client.mGet(page.keys);
        for (const [index, key] of page.keys.entries()) {
          const raw = values[index];
          if (typeof raw === 'string') rows.push(parseRow(key.slice(base.length), raw));
        }
      } while (cursor !== '0');
      return rows;
    },
    // Redis expires keys itself (keyv sets PX on every write with a ttl).
    purgeExpired: async () => 0,
    async countRows() {
      const client = await adapter.getClient();
      return Number(await (client as unknown as { dbSize(): Promise<number> }).dbSize());
    },
  };
}

function openMemory(): KeyvBackend {
  const map = new Map<string, unknown>();
  // Keys as given (no `keyv:` in front), as the other backends keep them: what scan and the purge look for.
  const keyv = new Keyv({ store: map, useKeyPrefix: false, throwOnErrors: true });
  const rowOf = (key: string, raw: unknown): StoredRow => (typeof raw === 'string' ? parseRow(key, raw) : { key, ...(raw as { value: unknown; expires?: number }) });
  return {
    keyv,
    description: 'memory (nothing survives a restart)',
    scan: async (prefix) => [...map.entries()].filter(([key]) => key.startsWith(prefix)).map(([key, raw]) => rowOf(key, raw)),
    async purgeExpired(now) {
      let purged = 0;
      for (const [key, raw] of map.entries()) {
        const row = rowOf(key, raw);
        if (row.expires !== undefined && row.expires < now) {
          map.delete(key);
          purged += 1;
        }
      }
      return purged;
    },
    countRows: async () => map.size,
  };
}

function parseRow(key: string, raw: string): StoredRow {
  const parsed = JSON.parse(raw) as { value?: unknown; expires?: number | null };
  return { key, value: parsed.value, ...(typeof parsed.expires === 'number' ? { expires: parsed.expires } : {}) };
}
