// Cluster mode: any instance sends QQ replies (a card from one, the answer after the press from another). QQ drops a
// second reply with the same msg_id + msg_seq as a duplicate, so the replies to a message are numbered in the shared
// store: two instances (two senders, two PostgreSQL pools) replying to one message both get through.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAccessTokenClient } from '../../../channels/qq/access-token-client.js';
import { createQqSender } from '../../../channels/qq/create-qq-sender.js';
import { createSharedReplySequence, type ReplyCount } from '../../../channels/qq/create-shared-reply-sequence.js';
import { createStore, type Store } from '../../../src/store/index.js';
import { useScratchDatabase } from '../../contracts/scratch-postgres.js';
import { type QqBotApiEmulator, startQqBotApiEmulator } from '../../fakes/qq/qq-bot-api-emulator.js';

const scratch = await useScratchDatabase();
const up = scratch.up;
let emulator: QqBotApiEmulator;
const stores: Store[] = [];
beforeEach(async () => {
  emulator = await startQqBotApiEmulator();
});
afterEach(async () => {
  await emulator.stop();
  for (const store of stores.splice(0)) await store.close();
});

async function instanceSender() {
  const store = await createStore({ url: scratch.url(), dataDir: '.' });
  stores.push(store);
  const tokens = createAccessTokenClient({ appId: emulator.appId, clientSecret: emulator.secret, tokenRoot: emulator.apiRoot, now: () => emulator.now() });
  const replySequence = createSharedReplySequence({ counts: store.namespace<ReplyCount>('qq-reply-counts'), appId: emulator.appId });
  return createQqSender({ apiRoot: emulator.apiRoot, tokens, now: () => emulator.now(), replySequence });
}

describe.skipIf(!up)(`QQ replies from two instances${up ? '' : ' (skipped: PostgreSQL is not running on 127.0.0.1:5432)'}`, () => {
  it('numbers the replies to one message across instances, so QQ takes every one, also sent at the same moment', async () => {
    const [first, second] = [await instanceSender(), await instanceSender()];
    const inbound = await emulator.userSends({ openid: 'U1', content: 'publish the draft' });
    const replyTo = { messageId: inbound.msgId, sentAt: emulator.now() };
    const target = { scene: 'c2c' as const, openid: 'U1' };
    expect(await first.send({ target, content: 'the card', replyTo })).toMatchObject({ ok: true, msgSeq: 1 });
    // The answer after the press, sent by the other instance: with its own count it would be msg_seq 1, a duplicate.
    const answer = await second.send({ target, content: 'published', replyTo });
    expect(answer).toMatchObject({ ok: true, msgSeq: 2 });
    expect(answer).not.toHaveProperty('duplicate');
    const atOnce = await Promise.all([first.send({ target, content: 'a', replyTo }), second.send({ target, content: 'b', replyTo })]);
    expect(atOnce.map((delivery) => delivery.ok)).toEqual([true, true]);
    expect(atOnce.some((delivery) => 'duplicate' in delivery)).toBe(false);
    expect(emulator.sentMessages().map((message) => message.content)).toEqual(expect.arrayContaining(['the card', 'published', 'a', 'b']));
    expect(new Set(emulator.sentMessages().map((message) => message.msgSeq)).size).toBe(4);
  });

  it('sends nothing, and says why, when the shared count cannot be reached', async () => {
    const sender = await instanceSender();
    const inbound = await emulator.userSends({ openid: 'U1', content: 'hi' });
    await stores[0]?.close();
    const delivery = await sender.send({ target: { scene: 'c2c', openid: 'U1' }, content: 'answer', replyTo: { messageId: inbound.msgId, sentAt: emulator.now() } });
    expect(delivery).toMatchObject({ ok: false, reason: 'unreachable', retryable: true });
    expect(delivery.ok ? '' : delivery.message).toMatch(/could not be numbered/);
    expect(emulator.sentMessages()).toEqual([]);
    stores.splice(0);
  });
});
