import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createStore } from '../../../src/store/index.js';
import { describeStoreContract } from '../../contracts/store-contract.js';

const dataDir = mkdtempSync(join(tmpdir(), 'echo-store-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describeStoreContract('sqlite file', () => createStore({ dataDir }));
describeStoreContract('memory', () => createStore({ dataDir, url: 'memory:' }));

describe('sqlite store', () => {
  it('keeps values across a close and reopen of the same file', async () => {
    const first = await createStore({ dataDir });
    await first.namespace<string>('durable').set('key', 'survives');
    await first.close();
    const second = await createStore({ dataDir });
    expect(await second.namespace<string>('durable').get('key')).toBe('survives');
    expect(second.description).toContain(join(dataDir, 'echo.sqlite'));
    await second.close();
  });

  it('refuses an unknown storage url with a clear error', async () => {
    await expect(createStore({ dataDir, url: 'mongodb://x' })).rejects.toThrow(/storage.url must be/);
  });
});

describe('sqlite store purge', () => {
  it('deletes expired rows from the file, so the row count falls', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'echo-purge-'));
    const store = await createStore({ dataDir: folder });
    const space = store.namespace<number>('telegram-updates');
    for (let index = 0; index < 20; index += 1) await space.set(String(index), index, 20);
    await space.set('kept', 1);
    const before = await store.countRows();
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(await store.purgeExpired()).toBe(20);
    expect(await store.countRows()).toBe(before - 20);
    await store.close();
    rmSync(folder, { recursive: true, force: true });
  });
});
