import { afterEach, describe, expect, it } from 'vitest';
import { createUpdateDedupe } from '../../../../channels/telegram/update-dedupe.js';
import { createStore } from '../../../../src/store/create-store.js';
import type { Store } from '../../../../src/store/key-value-namespace.js';

describe('telegram update dedupe', () => {
  let store: Store | undefined;
  afterEach(async () => store?.close());

  it('claims an update id once, gives it back on release, and keeps a bounded window', async () => {
    store = await createStore({ url: 'memory:', dataDir: '.' });
    const namespace = store.namespace<number[]>('telegram-updates');
    const dedupe = createUpdateDedupe({ store: namespace, key: 'bot', window: 3 });
    expect(await dedupe.claim(10)).toBe(true);
    expect(await dedupe.claim(10)).toBe(false);
    await dedupe.release(10);
    expect(await dedupe.claim(10)).toBe(true);
    for (const id of [11, 12, 13]) expect(await dedupe.claim(id)).toBe(true);
    expect(await namespace.get('bot')).toEqual([11, 12, 13]);
    // Ids are not compared by size: Telegram may restart its numbering.
    expect(await dedupe.claim(1)).toBe(true);
  });
});
