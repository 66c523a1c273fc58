import { EventEmitter } from 'node:events';
import type { KeyvStoreAdapter, StoredData } from 'keyv';
import type { SqliteConnection } from './open-sqlite-connection.js';

type Row = { readonly key: string; readonly value: string };

/**
 * keyv's view of the store's SQLite connection, for the calls that do not go through the batched statements (the
 * start-up probe, health checks). Rows as `@keyv/sqlite` keeps them: the key, and the serialized value keyv made
 * (its expiry inside); keyv itself treats an expired row as missing.
 */
export function createSqliteKeyvStore(connection: SqliteConnection): KeyvStoreAdapter {
  const store = Object.assign(new EventEmitter(), {
    opts: { dialect: 'sqlite' },
    namespace: undefined as string | undefined,
    async get<Value>(key: string) {
      const rows = await connection.query<Row>('SELECT key, value FROM keyv WHERE key = ?', [key]);
      return rows[0]?.value as StoredData<Value> | undefined;
    },
    async getMany<Value>(keys: string[]) {
      const rows = await connection.query<Row>('SELECT key, value FROM keyv WHERE key IN (SELECT value FROM json_each(?))', [JSON.stringify(keys)]);
      const found = new Map(rows.map((row) => [row.key, row.value]));
      return keys.map((key) => found.get(key) as StoredData<Value | undefined>);
    },
    async set(key: string, value: unknown) {
      await connection.query('INSERT INTO keyv (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value', [key, value]);
      return true;
    },
    async delete(key: string) {
      const rows = await connection.query('DELETE FROM keyv WHERE key = ? RETURNING key', [key]);
      return rows.length > 0;
    },
    async has(key: string) {
      const rows = await connection.query('SELECT 1 FROM keyv WHERE key = ?', [key]);
      return rows.length > 0;
    },
    async clear() {
      // substr, not LIKE: namespace names contain `_`, which LIKE would read as a pattern.
      const prefix = store.namespace === undefined ? '' : `${store.namespace}:`;
      await connection.query('DELETE FROM keyv WHERE substr(key, 1, ?) = ?', [prefix.length, prefix]);
    },
    disconnect: () => connection.close(),
  });
  return store;
}
