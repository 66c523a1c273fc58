import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMessageDedupe } from '../../../../channels/wechat/index.js';
import { createStore } from '../../../../src/store/create-store.js';

const dataDir = mkdtempSync(join(tmpdir(), 'echo-wechat-dedupe-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('createMessageDedupe', () => {
  it('says yes once per id, also after a restart over the same SQLite file', async () => {
    const first = await createStore({ dataDir });
    const dedupe = createMessageDedupe({ store: first.namespace<number>('wechat-messages'), ttlMs: 60_000, memoryLimit: 10 });
    expect(await dedupe.isFirstSighting('m-1')).toBe(true);
    expect(await dedupe.isFirstSighting('m-1')).toBe(false);
    expect(await dedupe.isFirstSighting('m-2')).toBe(true);
    await first.close();

    const second = await createStore({ dataDir });
    const afterRestart = createMessageDedupe({ store: second.namespace<number>('wechat-messages'), ttlMs: 60_000, memoryLimit: 10 });
    expect(await afterRestart.isFirstSighting('m-1')).toBe(false);
    expect(await afterRestart.isFirstSighting('m-3')).toBe(true);
    await second.close();
  });

  it('still answers from the store when the memory bound pushed an id out', async () => {
    const store = await createStore({ dataDir: join(dataDir, 'bounded') });
    const dedupe = createMessageDedupe({ store: store.namespace<number>('wechat-messages'), ttlMs: 60_000, memoryLimit: 2 });
    for (const id of ['a', 'b', 'c', 'd']) expect(await dedupe.isFirstSighting(id)).toBe(true);
    expect(await dedupe.isFirstSighting('a')).toBe(false);
    await store.close();
  });

  it('forgets ids after the TTL', async () => {
    const store = await createStore({ dataDir: join(dataDir, 'ttl') });
    const namespace = store.namespace<number>('wechat-messages');
    const dedupe = createMessageDedupe({ store: namespace, ttlMs: 30, memoryLimit: 0 });
    expect(await dedupe.isFirstSighting('old')).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(await namespace.get('old')).toBeUndefined();
    await store.close();
  });
});
