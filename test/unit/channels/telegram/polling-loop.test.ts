import { describe, expect, it } from 'vitest';
import type { BotApi } from '../../../../channels/telegram/bot-api.js';
import { createChatThrottle, telegramLimits } from '../../../../channels/telegram/chat-throttle.js';
import type { DispatchOutcome } from '../../../../channels/telegram/dispatch-update.js';
import { startPollingLoop } from '../../../../channels/telegram/polling-loop.js';
import { createTelegramTransport } from '../../../../channels/telegram/telegram-transport.js';
import { createLogger } from '../../../../src/logging/create-logger.js';
import { createStore } from '../../../../src/store/create-store.js';

const message = (updateId: number, chatId: number) => ({ update_id: updateId, message: { message_id: updateId, chat: { id: chatId, type: 'private' }, text: `m${updateId}` } });

/** A Bot API that answers getUpdates once with `batch`, then with nothing. */
function apiWithBatch(batch: readonly unknown[]): BotApi {
  let served = false;
  return {
    async call(method) {
      if (method !== 'getUpdates' || served) return [];
      served = true;
      return batch;
    },
  };
}

describe('the polling loop', () => {
  it('dispatches different chats side by side and one chat in order, and stores the offset after the batch', async () => {
    const logger = await createLogger({ level: 'silent', pretty: false });
    const store = await createStore({ url: 'memory:', dataDir: '.' });
    const offsets = store.namespace<number>('channel-offsets');
    const api = apiWithBatch([message(1, 100), message(2, 200), message(3, 100), message(4, 200)]);
    const transport = createTelegramTransport({ api, throttle: createChatThrottle(telegramLimits), logger, token: '1:x' });
    const started: number[] = [];
    let releaseFirst: (() => void) | undefined;
    const dispatch = async (update: unknown): Promise<DispatchOutcome> => {
      const id = (update as { update_id: number }).update_id;
      started.push(id);
      // The first update of chat 100 is slow (a store round trip, say): chat 200 must not wait for it.
      if (id === 1) await new Promise<void>((resolve) => (releaseFirst = resolve));
      return 'dispatched';
    };
    const loop = startPollingLoop({ transport, dispatch, offsets, offsetKey: 'telegram:1', logger, onStatus: () => undefined, idleSleepMs: 5 });
    await expect.poll(() => started).toEqual([1, 2, 4]);
    // Chat 100's second update waits for its first.
    expect(started).not.toContain(3);
    releaseFirst?.();
    await expect.poll(() => started).toEqual([1, 2, 4, 3]);
    await expect.poll(() => offsets.get('telegram:1')).toBe(5);
    await loop.stop();
    await store.close();
  });

  it('keeps the offset before an update that could not be recorded, so Telegram sends it again', async () => {
    const logger = await createLogger({ level: 'silent', pretty: false });
    const store = await createStore({ url: 'memory:', dataDir: '.' });
    const offsets = store.namespace<number>('channel-offsets');
    const api = apiWithBatch([message(10, 100), message(11, 200), message(12, 100)]);
    const transport = createTelegramTransport({ api, throttle: createChatThrottle(telegramLimits), logger, token: '1:x' });
    const dispatched: number[] = [];
    const dispatch = async (update: unknown): Promise<DispatchOutcome> => {
      const id = (update as { update_id: number }).update_id;
      dispatched.push(id);
      return id === 11 ? 'retry-later' : 'dispatched';
    };
    const loop = startPollingLoop({ transport, dispatch, offsets, offsetKey: 'telegram:1', logger, onStatus: () => undefined, idleSleepMs: 5, retryBaseMs: 5 });
    await expect.poll(() => offsets.get('telegram:1')).toBe(11);
    await loop.stop();
    expect(dispatched.sort()).toEqual([10, 11, 12]);
    await store.close();
  });
  it('polls again without waiting for the offset of the batch to be stored, and stores it before it stops', async () => {
    const logger = await createLogger({ level: 'silent', pretty: false });
    const store = await createStore({ url: 'memory:', dataDir: '.' });
    const realOffsets = store.namespace<number>('channel-offsets');
    let releaseWrite: (() => void) | undefined;
    const writeHeld = new Promise<void>((resolve) => (releaseWrite = resolve));
    // The offset write hangs (a busy store) until released.
    const offsets = { ...realOffsets, set: async (key: string, value: number) => writeHeld.then(() => realOffsets.set(key, value)) };
    let polls = 0;
    const api: BotApi = {
      async call(method) {
        if (method !== 'getUpdates') return [];
        polls += 1;
        return polls === 1 ? [message(7, 100)] : [];
      },
    };
    const transport = createTelegramTransport({ api, throttle: createChatThrottle(telegramLimits), logger, token: '1:x' });
    const loop = startPollingLoop({ transport, dispatch: async () => 'dispatched', offsets, offsetKey: 'telegram:1', logger, onStatus: () => undefined, idleSleepMs: 5 });
    await expect.poll(() => polls).toBeGreaterThanOrEqual(3);
    expect(await realOffsets.get('telegram:1')).toBeUndefined();
    const stopped = loop.stop();
    releaseWrite?.();
    await stopped;
    expect(await realOffsets.get('telegram:1')).toBe(8);
    await store.close();
  });
});
