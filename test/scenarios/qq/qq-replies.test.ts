import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAccessTokenClient } from '../../../channels/qq/access-token-client.js';
import { createQqSender } from '../../../channels/qq/create-qq-sender.js';
import { type QqBotApiEmulator, startQqBotApiEmulator } from '../../fakes/qq/qq-bot-api-emulator.js';

let emulator: QqBotApiEmulator;

beforeEach(async () => {
  emulator = await startQqBotApiEmulator();
});
afterEach(async () => {
  await emulator.stop();
});

function tokensFor(target: QqBotApiEmulator, secret = target.secret) {
  return createAccessTokenClient({ appId: target.appId, clientSecret: secret, tokenRoot: target.apiRoot, now: () => target.now() });
}

describe('QQ access token against the emulator', () => {
  it('fetches one token, reuses it, and fetches a new one in its last minute while the old still works', async () => {
    const tokens = tokensFor(emulator);
    const first = await tokens.get();
    expect(first).toMatchObject({ ok: true });
    expect(await tokens.get()).toEqual(first);
    expect(emulator.tokenRequests()).toBe(1);
    emulator.advance(7200_000 - 30_000);
    const second = await tokens.get();
    expect(emulator.tokenRequests()).toBe(2);
    expect(second.ok && first.ok && second.token.value !== first.token.value).toBe(true);
  });

  it('shares one request between callers waiting for a token', async () => {
    const tokens = tokensFor(emulator);
    await Promise.all([tokens.get(), tokens.get(), tokens.get()]);
    expect(emulator.tokenRequests()).toBe(1);
  });

  it('reports refused credentials as a value', async () => {
    expect(await tokensFor(emulator, 'wrong-secret').get()).toMatchObject({ ok: false, code: 'credentials-refused' });
  });

  it('reports an unreachable endpoint as a value', async () => {
    const tokens = createAccessTokenClient({ appId: 'a', clientSecret: 'b', tokenRoot: 'http://127.0.0.1:1', timeoutMs: 2000 });
    expect(await tokens.get()).toMatchObject({ ok: false, code: 'unreachable' });
  });
});

describe('QQ passive replies against the emulator', () => {
  it('replies to a private message with msg_id and msg_seq counting 1, 2, ... up to the limit of 5', async () => {
    const sender = createQqSender({ apiRoot: emulator.apiRoot, tokens: tokensFor(emulator), now: () => emulator.now() });
    const inbound = await emulator.userSends({ openid: 'U1', content: 'hi' });
    const replyTo = { messageId: inbound.msgId, sentAt: emulator.now() };
    const deliveries = [];
    for (let index = 0; index < 6; index += 1) deliveries.push(await sender.send({ target: { scene: 'c2c', openid: 'U1' }, content: `part ${index + 1}`, replyTo }));
    expect(deliveries.slice(0, 5).map((delivery) => delivery.ok)).toEqual([true, true, true, true, true]);
    expect(deliveries[5]).toMatchObject({ ok: false, reason: 'reply-limit-reached', retryable: false });
    expect(emulator.sentMessages().map((message) => [message.msgId, message.msgSeq])).toEqual([1, 2, 3, 4, 5].map((seq) => [inbound.msgId, seq]));
  });

  it('reports honestly when QQ refuses a group reply after its 5-minute window (the bot did not know)', async () => {
    // The bot's clock is behind the platform's: its own check passes, so QQ's refusal is what it must report.
    const sender = createQqSender({ apiRoot: emulator.apiRoot, tokens: tokensFor(emulator) });
    const inbound = await emulator.memberMentionsBot({ groupOpenid: 'G1', memberOpenid: 'M1', content: 'slow question' });
    emulator.advance(5 * 60_000 + 1000);
    const delivery = await sender.send({ target: { scene: 'group', groupOpenid: 'G1' }, content: 'late answer', replyTo: { messageId: inbound.msgId, sentAt: new Date() } });
    expect(delivery).toMatchObject({ ok: false, reason: 'reply-window-closed', retryable: false, code: 304027 });
    expect(emulator.sentMessages()).toEqual([]);
  });

  it('does not call QQ for a reply it knows is outside the window', async () => {
    const sender = createQqSender({ apiRoot: emulator.apiRoot, tokens: tokensFor(emulator), now: () => emulator.now() });
    const inbound = await emulator.userSends({ openid: 'U1', content: 'hi' });
    const sentAt = emulator.now();
    emulator.advance(61 * 60_000);
    expect(await sender.send({ target: { scene: 'c2c', openid: 'U1' }, content: 'late', replyTo: { messageId: inbound.msgId, sentAt } })).toMatchObject({ ok: false, reason: 'reply-window-closed' });
    expect(emulator.refusals()).toEqual([]);
  });

  it('reports a proactive send as refused: QQ no longer delivers messages that answer nothing', async () => {
    const sender = createQqSender({ apiRoot: emulator.apiRoot, tokens: tokensFor(emulator) });
    expect(await sender.send({ target: { scene: 'c2c', openid: 'U1' }, content: 'good morning' })).toMatchObject({ ok: false, reason: 'proactive-refused', retryable: false });
    expect(await sender.send({ target: { scene: 'group', groupOpenid: 'G1' }, content: 'good morning' })).toMatchObject({ ok: false, reason: 'proactive-refused' });
  });

  it('refuses a reply that names a message from another chat', async () => {
    const sender = createQqSender({ apiRoot: emulator.apiRoot, tokens: tokensFor(emulator) });
    const inbound = await emulator.userSends({ openid: 'U1', content: 'hi' });
    expect(await sender.send({ target: { scene: 'c2c', openid: 'U2' }, content: 'x', replyTo: { messageId: inbound.msgId, sentAt: new Date() } })).toMatchObject({ ok: false, reason: 'reply-target-invalid' });
  });

  it('retries with the same msg_seq after a lost answer, and QQ drops the copy', async () => {
    const sender = createQqSender({ apiRoot: emulator.apiRoot, tokens: tokensFor(emulator) });
    const inbound = await emulator.userSends({ openid: 'U1', content: 'hi' });
    const replyTo = { messageId: inbound.msgId, sentAt: new Date() };
    const first = await sender.send({ target: { scene: 'c2c', openid: 'U1' }, content: 'answer', replyTo });
    expect(first).toMatchObject({ ok: true, msgSeq: 1 });
    // As if the first answer had been lost: sent again with its msg_seq.
    expect(await sender.send({ target: { scene: 'c2c', openid: 'U1' }, content: 'answer', replyTo, msgSeq: 1 })).toMatchObject({ ok: true, duplicate: true });
    expect(emulator.sentMessages()).toHaveLength(1);
  });

  it('fetches a new token when QQ refuses the cached one', async () => {
    const tokens = tokensFor(emulator);
    await tokens.get();
    const sender = createQqSender({ apiRoot: emulator.apiRoot, tokens });
    const inbound = await emulator.userSends({ openid: 'U1', content: 'hi' });
    // The whole token lifetime passes on the platform while the bot's clock stands still.
    emulator.advance(7201_000);
    const delivery = await sender.send({ target: { scene: 'c2c', openid: 'U1' }, content: 'x', replyTo: { messageId: inbound.msgId, sentAt: new Date() } });
    expect(delivery).toMatchObject({ ok: false, reason: 'reply-window-closed' });
    expect(emulator.tokenRequests()).toBe(2);
  });
});
