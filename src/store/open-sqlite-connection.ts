import sqlite3 from 'sqlite3';
import { EchoError } from '../errors/echo-error.js';

/** One SQLite connection whose statements are prepared once and reused. */
export type SqliteConnection = {
  /** Runs one statement with its parameters; resolves to the rows it returned (none for most writes). */
  query<Row = unknown>(sql: string, parameters?: readonly unknown[]): Promise<Row[]>;
  /** Finalizes the prepared statements and closes the file. */
  close(): Promise<void>;
};

/**
 * Opens the store's SQLite file: WAL (reads beside a write), synchronous=NORMAL (syncs at checkpoints, not on every
 * commit: a crashed process loses nothing; a power cut may lose the last moments of writes, never corrupt the file),
 * and the `keyv` table in the layout earlier versions (and `@keyv/sqlite`) wrote, so existing data folders open as they are.
 *
 * Each distinct SQL text is prepared once: sqlite3's `Database.all` prepares, runs and finalizes a statement per call,
 * three hops through libuv's pool and back to the event loop, where a prepared statement takes one. On one person's
 * message the store's calls sit between the update and the model request and between the answer and the reply.
 */
export async function openSqliteConnection(file: string, options: { readonly busyTimeoutMs: number }): Promise<SqliteConnection> {
  const database = await new Promise<sqlite3.Database>((resolve, reject) => {
    const opened: sqlite3.Database = new sqlite3.Database(file, (error) => (error ? reject(error) : resolve(opened)));
  });
  database.configure('busyTimeout', options.busyTimeoutMs);
  // The store runs a handful of fixed statements; the cache holds one of each, once prepared.
  const statements = new Map<string, Promise<sqlite3.Statement>>();
  let closed = false;
  const prepare = (sql: string): Promise<sqlite3.Statement> => {
    const cached = statements.get(sql);
    if (cached !== undefined) return cached;
    // A failed prepare reaches only its own callback (calls queued on the statement would never be answered), so
    // calls wait for the prepare; one that failed (a busy file, a table not made yet) is not kept, and the next call
    // prepares it afresh.
    const prepared = new Promise<sqlite3.Statement>((resolve, reject) => {
      const statement: sqlite3.Statement = database.prepare(sql, (error) => (error ? reject(error) : resolve(statement)));
    });
    statements.set(sql, prepared);
    prepared.catch(() => {
      if (statements.get(sql) === prepared) statements.delete(sql);
    });
    return prepared;
  };
  // Calls under way when close begins still finish; close waits for them before it finalizes their statements.
  let pending = 0;
  let whenIdle: (() => void) | undefined;
  const run = async <Row>(sql: string, parameters: readonly unknown[]): Promise<Row[]> => {
    pending += 1;
    try {
      const statement = await prepare(sql);
      return await new Promise<Row[]>((resolve, reject) => {
        statement.all<Row>([...parameters], (error, rows) => (error ? reject(error) : resolve(rows)));
      });
    } finally {
      pending -= 1;
      if (pending === 0) whenIdle?.();
    }
  };
  // A call after close would prepare a statement the closed connection never finalizes.
  const query = <Row>(sql: string, parameters: readonly unknown[] = []): Promise<Row[]> =>
    closed ? Promise.reject(new EchoError('store-closed', `The SQLite store (${file}) is closed.`)) : run<Row>(sql, parameters);
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    if (pending > 0) await new Promise<void>((resolve) => (whenIdle = resolve));
    const open = await Promise.allSettled(statements.values());
    statements.clear();
    await Promise.all(open.map((prepared) => (prepared.status === 'fulfilled' ? new Promise<void>((resolve) => prepared.value.finalize(() => resolve())) : undefined)));
    await new Promise<void>((resolve, reject) => database.close((error) => (error ? reject(error) : resolve())));
  };
  try {
    await query('PRAGMA journal_mode = WAL');
    await query('PRAGMA synchronous = NORMAL');
    await query('CREATE TABLE IF NOT EXISTS keyv(key VARCHAR(255) PRIMARY KEY, value TEXT )');
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
  return { query, close };
}
