import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDedupe, type DedupeRow } from '../../../src/dedupe/create-dedupe.js';
import { createStore } from '../../../src/store/create-store.js';

const dataDir = mkdtempSync(join(tmpdir(), 'echo-dedupe-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('createDedupe', () => {
  it('claims an id once, gives it back on release, beyond its memory window too', async () => {
    const store = await createStore({ url: 'memory:', dataDir: '.' });
    const dedupe = createDedupe({ store: store.namespace<DedupeRow>('telegram-updates'), keyPrefix: 'bot', ttlMs: 60_000, memoryLimit: 3 });
    expect(await dedupe.claim(10)).toBe(true);
    expect(await dedupe.claim(10)).toBe(false);
    await dedupe.release(10);
    expect(await dedupe.claim(10)).toBe(true);
    for (const id of [11, 12, 13]) expect(await dedupe.claim(id)).toBe(true);
    // 10 has left the memory window; the store still knows it.
    expect(await dedupe.claim(10)).toBe(false);
    // Ids are not compared by size: Telegram may restart its numbering.
    expect(await dedupe.claim(1)).toBe(true);
    expect(await store.namespace<DedupeRow>('telegram-updates').get('bot:1')).toMatchObject({ at: expect.any(Number), by: expect.any(String) });
    await store.close();
  });

  it('says yes once per id, also after a restart over the same SQLite file', async () => {
    const first = await createStore({ dataDir });
    const dedupe = createDedupe({ store: first.namespace<DedupeRow>('wechat-messages'), ttlMs: 60_000, memoryLimit: 10 });
    expect(await dedupe.claim('m-1')).toBe(true);
    await dedupe.confirm('m-1');
    expect(await dedupe.claim('m-1')).toBe(false);
    expect(await dedupe.claim('m-2')).toBe(true);
    await dedupe.confirm('m-2');
    // Claimed, then the process died before handing it on: never confirmed.
    expect(await dedupe.claim('m-4')).toBe(true);
    await first.close();

    const second = await createStore({ dataDir });
    const afterRestart = createDedupe({ store: second.namespace<DedupeRow>('wechat-messages'), ttlMs: 60_000, memoryLimit: 10 });
    expect(await afterRestart.claim('m-1')).toBe(false);
    expect(await afterRestart.claim('m-3')).toBe(true);
    // The unconfirmed claim of the dead process is taken over, so the message is not lost; then it is this process's.
    expect(await afterRestart.claim('m-4')).toBe(true);
    expect(await afterRestart.claim('m-4')).toBe(false);
    await second.close();
  });

  it('claims an id once when two deliveries arrive together', async () => {
    const store = await createStore({ url: 'memory:', dataDir: '.' });
    const dedupe = createDedupe({ store: store.namespace<DedupeRow>('wechat-messages'), ttlMs: 60_000, memoryLimit: 10 });
    expect(await Promise.all([dedupe.claim('twice'), dedupe.claim('twice')])).toEqual([true, false]);
    await store.close();
  });

  it('forgets ids after the TTL', async () => {
    const store = await createStore({ dataDir: join(dataDir, 'ttl') });
    const namespace = store.namespace<DedupeRow>('wechat-messages');
    const dedupe = createDedupe({ store: namespace, ttlMs: 30, memoryLimit: 0 });
    expect(await dedupe.claim('old')).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(await namespace.get('old')).toBeUndefined();
    await store.close();
  });

  it('does not count an id as claimed when the store failed to record it, so its redelivery gets through', async () => {
    const store = await createStore({ dataDir });
    const real = store.namespace<DedupeRow>('dedupe-failing');
    let failing = true;
    const namespace = {
      ...real,
      // Both ways a claim writes fail: the first claim of an id, and the compare-and-set of one already there.
      setIfAbsent: (...args: Parameters<typeof real.setIfAbsent>) => (failing ? Promise.reject(new Error('disk full')) : real.setIfAbsent(...args)),
      update: (...args: Parameters<typeof real.update>) => (failing ? Promise.reject(new Error('disk full')) : real.update(...args)),
    };
    const dedupe = createDedupe({ store: namespace, ttlMs: 60_000, memoryLimit: 100 });
    await expect(dedupe.claim(7)).rejects.toThrow('disk full');
    failing = false;
    expect(await dedupe.claim(7)).toBe(true);
    expect(await dedupe.claim(7)).toBe(false);
    await store.close();
  });
});
