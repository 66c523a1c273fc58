import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createUpdateDedupe } from '../../../../channels/telegram/update-dedupe.js';
import { createStore } from '../../../../src/store/create-store.js';
import type { Store } from '../../../../src/store/key-value-namespace.js';

describe('telegram update dedupe', () => {
  let store: Store | undefined;
  let folder: string | undefined;
  afterEach(async () => {
    await store?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('claims an update id once, gives it back on release, beyond its memory window too', async () => {
    store = await createStore({ url: 'memory:', dataDir: '.' });
    const dedupe = createUpdateDedupe({ store: store.namespace<number>('telegram-updates'), key: 'bot', window: 3 });
    expect(await dedupe.claim(10)).toBe(true);
    expect(await dedupe.claim(10)).toBe(false);
    await dedupe.release(10);
    expect(await dedupe.claim(10)).toBe(true);
    for (const id of [11, 12, 13]) expect(await dedupe.claim(id)).toBe(true);
    // 10 has left the memory window; the store still knows it.
    expect(await dedupe.claim(10)).toBe(false);
    // Ids are not compared by size: Telegram may restart its numbering.
    expect(await dedupe.claim(1)).toBe(true);
  });

  it('remembers claims across a restart over the same SQLite file', async () => {
    folder = mkdtempSync(join(tmpdir(), 'echo-dedupe-'));
    const first = await createStore({ dataDir: folder });
    expect(await createUpdateDedupe({ store: first.namespace<number>('telegram-updates'), key: 'bot' }).claim(500)).toBe(true);
    await first.close();
    store = await createStore({ dataDir: folder });
    const restarted = createUpdateDedupe({ store: store.namespace<number>('telegram-updates'), key: 'bot' });
    expect(await restarted.claim(500)).toBe(false);
    expect(await restarted.claim(501)).toBe(true);
  });
});
