import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openKeyvBackend } from '../../../src/store/open-keyv-backend.js';
import { openSqliteConnection } from '../../../src/store/open-sqlite-connection.js';
import { createStore } from '../../../src/store/create-store.js';

const dataDir = mkdtempSync(join(tmpdir(), 'echo-sqlite-connection-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('openSqliteConnection', () => {
  it('answers each of many concurrent calls of one prepared statement with its own rows', async () => {
    const connection = await openSqliteConnection(join(dataDir, 'concurrent.sqlite'), { busyTimeoutMs: 1000 });
    await connection.query('INSERT INTO keyv (key, value) SELECT value ->> 0, value ->> 1 FROM json_each(?) WHERE true', [JSON.stringify(Array.from({ length: 50 }, (_, index) => [`k${index}`, `v${index}`]))]);
    const answers = await Promise.all(Array.from({ length: 50 }, (_, index) => connection.query<{ value: string }>('SELECT value FROM keyv WHERE key = ?', [`k${index}`])));
    expect(answers.map((rows) => rows[0]?.value)).toEqual(Array.from({ length: 50 }, (_, index) => `v${index}`));
    await connection.close();
  });

  it('prepares a statement that failed afresh, so a failure does not stick', async () => {
    const connection = await openSqliteConnection(join(dataDir, 'failed.sqlite'), { busyTimeoutMs: 1000 });
    await expect(connection.query('SELECT count(*) AS rows FROM later')).rejects.toThrow(/no such table: later/);
    await connection.query('CREATE TABLE later (id INTEGER)');
    expect(await connection.query('SELECT count(*) AS rows FROM later')).toEqual([{ rows: 0 }]);
    await connection.close();
  });

  it('opens a file an earlier version wrote with its keyv table as it is', async () => {
    const file = join(dataDir, 'earlier.sqlite');
    const first = await openSqliteConnection(file, { busyTimeoutMs: 1000 });
    await first.query('INSERT INTO keyv (key, value) VALUES (?, ?)', ['notes:a', JSON.stringify({ value: 'kept' })]);
    await first.close();
    const store = await createStore({ dataDir, url: `sqlite://${file}` });
    expect(await store.namespace<string>('notes').get('a')).toBe('kept');
    await store.close();
  });
});

describe('SQLite setIfAbsent in one statement', () => {
  it('writes only the first of two rows for one key in a batch, and never over a live row', async () => {
    const backend = await openKeyvBackend({ url: `sqlite://${join(dataDir, 'batch.sqlite')}`, dataDir });
    const insert = backend.insertIfAbsentBatch;
    if (insert === undefined) throw new Error('the SQLite backend has no insertIfAbsentBatch');
    const row = (key: string, value: string) => ({ key, serialized: JSON.stringify({ value }) });
    expect(await insert([row('a', 'first'), row('b', 'only'), row('a', 'second')])).toEqual([true, true, false]);
    expect(await insert([row('a', 'third')])).toEqual([false]);
    expect((await backend.readBatch?.(['a', 'b']))?.map((stored) => stored?.value)).toEqual(['first', 'only']);
    await backend.keyv.disconnect();
  });
});

describe('openSqliteConnection after close', () => {
  it('refuses a call made after close with a clear error, and a second close is harmless', async () => {
    const connection = await openSqliteConnection(join(dataDir, 'closed.sqlite'), { busyTimeoutMs: 1000 });
    const before = connection.query('SELECT count(*) AS rows FROM keyv');
    await connection.close();
    expect(await before).toEqual([{ rows: 0 }]);
    await expect(connection.query('SELECT count(*) AS rows FROM keyv')).rejects.toMatchObject({ code: 'store-closed' });
    await connection.close();
  });
});
