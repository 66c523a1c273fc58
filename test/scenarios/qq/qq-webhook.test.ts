import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAccessTokenClient } from '../../../channels/qq/access-token-client.js';
import { createQqSender } from '../../../channels/qq/create-qq-sender.js';
import { parseMessageEvent } from '../../../channels/qq/message-event-schema.js';
import { parseQqChatId } from '../../../channels/qq/qq-chat-id.js';
import { toMessageReceived } from '../../../channels/qq/to-event.js';
import { toInboundMessage } from '../../../channels/qq/to-inbound-message.js';
import { pushCallback } from '../../fakes/qq/push-callback.js';
import { type QqBotApiEmulator, startQqBotApiEmulator } from '../../fakes/qq/qq-bot-api-emulator.js';
import { platformKey } from '../../fakes/qq/qq-signing.js';
import { type ServedQqCallback, serveQqCallback } from '../../fakes/qq/serve-qq-callback.js';

let emulator: QqBotApiEmulator;
let callback: ServedQqCallback;

beforeEach(async () => {
  emulator = await startQqBotApiEmulator();
  callback = await serveQqCallback({ appId: emulator.appId, secret: emulator.secret });
  emulator.setCallbackUrl(callback.url);
});
afterEach(async () => {
  await callback.stop();
  await emulator.stop();
});

describe('QQ webhook mode against the emulator', () => {
  it('passes the address validation the console runs when the callback URL is saved', async () => {
    expect(await emulator.validateCallback()).toMatchObject({ status: 200, accepted: true });
    expect(await emulator.validateCallback({ plain_token: 'Arq0D5A61EgUu4OxUvOp', event_ts: '1725442341' })).toMatchObject({ accepted: true });
  });

  it('acknowledges a private message with op 12, reads it, and answers it passively', async () => {
    const inbound = await emulator.userSends({ openid: 'E4F4AEA33253A2797FB897C50B81D7ED', content: 'what time is it?' });
    expect(inbound.push).toMatchObject({ status: 200, accepted: true });
    expect(callback.dispatches).toHaveLength(1);
    const dispatch = callback.dispatches[0];
    const parsed = parseMessageEvent(dispatch?.t, dispatch?.d);
    if (!parsed.ok) throw new Error(parsed.reason);
    const message = toInboundMessage(parsed.event, { receivedAt: new Date(), ...(dispatch?.id === undefined ? {} : { eventId: dispatch.id }) });
    const event = toMessageReceived(message, { channel: 'qq', now: new Date(), sessionPerUser: false });
    expect(event).toMatchObject({ chatId: 'c2c:E4F4AEA33253A2797FB897C50B81D7ED', text: 'what time is it?', messageId: inbound.msgId });

    const target = parseQqChatId(event.chatId);
    if (!target) throw new Error('no target');
    const sender = createQqSender({ apiRoot: emulator.apiRoot, tokens: createAccessTokenClient({ appId: emulator.appId, clientSecret: emulator.secret, tokenRoot: emulator.apiRoot }) });
    expect(await sender.send({ target, content: 'Noon.', replyTo: { messageId: message.messageId, sentAt: message.sentAt } })).toMatchObject({ ok: true, msgSeq: 1 });
    expect(emulator.sentMessages()).toMatchObject([{ scene: 'c2c', chat: 'E4F4AEA33253A2797FB897C50B81D7ED', content: 'Noon.', msgId: inbound.msgId, msgSeq: 1 }]);
  });

  it('reads a group @-message without the leading blank QQ leaves', async () => {
    await emulator.memberMentionsBot({ groupOpenid: 'G1', memberOpenid: 'M1', content: 'summarise' });
    const parsed = parseMessageEvent(callback.dispatches[0]?.t, callback.dispatches[0]?.d);
    if (!parsed.ok) throw new Error(parsed.reason);
    expect(toInboundMessage(parsed.event, { receivedAt: new Date() })).toMatchObject({ scene: 'group', groupOpenid: 'G1', authorOpenid: 'M1', text: 'summarise' });
  });

  it('refuses events signed with another secret or not signed, and hands nothing over', async () => {
    const forged = { op: 0, id: 'x', t: 'C2C_MESSAGE_CREATE', d: { id: 'm', author: { user_openid: 'U' }, content: 'hi', timestamp: new Date().toISOString() } };
    const timestamp = String(Math.floor(Date.now() / 1000));
    expect(await pushCallback({ url: callback.url, key: platformKey('not-the-bot-secret'), appId: emulator.appId, payload: forged, timestamp })).toMatchObject({ status: 401, accepted: false });
    expect(await pushCallback({ url: callback.url, key: platformKey(emulator.secret), appId: emulator.appId, payload: forged, timestamp, forgedSignature: null })).toMatchObject({ status: 401 });
    expect(await pushCallback({ url: callback.url, key: platformKey('not-the-bot-secret'), appId: emulator.appId, payload: { op: 13, d: { plain_token: 'abc', event_ts: timestamp } }, timestamp })).toMatchObject({ status: 401, accepted: false });
    expect(callback.dispatches).toEqual([]);
    expect(callback.refusals).toHaveLength(3);
  });
});
