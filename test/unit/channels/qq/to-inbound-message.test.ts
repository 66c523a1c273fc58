import { describe, expect, it } from 'vitest';
import { parseMessageEvent } from '../../../../channels/qq/message-event-schema.js';
import { parsePayload } from '../../../../channels/qq/payload-schema.js';
import { toMessageReceived } from '../../../../channels/qq/to-event.js';
import { toInboundMessage } from '../../../../channels/qq/to-inbound-message.js';

const receivedAt = new Date('2025-01-01T00:00:00Z');

function parsed(type: string, data: unknown) {
  const result = parseMessageEvent(type, data);
  if (!result.ok) throw new Error(result.reason);
  return result.event;
}

describe('QQ message payloads', () => {
  it('describes a private message (the docs example)', () => {
    const event = parsed('C2C_MESSAGE_CREATE', { author: { user_openid: 'E4F4AEA33253A2797FB897C50B81D7ED' }, content: '123', id: 'ROBOT1.0_.b6nx.CVryAO0nR58RXuU6SC.m92gc19j02qKqdm8ek!', timestamp: '2023-11-06T13:37:18+08:00' });
    expect(toInboundMessage(event, { receivedAt, eventId: 'e1' })).toEqual({
      scene: 'c2c',
      authorOpenid: 'E4F4AEA33253A2797FB897C50B81D7ED',
      text: '123',
      messageId: 'ROBOT1.0_.b6nx.CVryAO0nR58RXuU6SC.m92gc19j02qKqdm8ek!',
      sentAt: new Date('2023-11-06T05:37:18Z'),
      eventId: 'e1',
      attachments: [],
    });
  });

  it('describes a group @-message with the mention and the leading blank removed', () => {
    const base = { author: { member_openid: 'M1' }, group_openid: 'G1', id: 'ROBOT1.0_g', timestamp: '2023-11-06T13:37:18+08:00' };
    expect(toInboundMessage(parsed('GROUP_AT_MESSAGE_CREATE', { ...base, content: ' 123' }), { receivedAt })).toMatchObject({ scene: 'group', authorOpenid: 'M1', groupOpenid: 'G1', text: '123' });
    expect(toInboundMessage(parsed('GROUP_AT_MESSAGE_CREATE', { ...base, content: '<@!6158788878435714165> hello <@OTHER>' }), { receivedAt }).text).toBe('hello <@OTHER>');
  });

  it('falls back to the receipt time for an unreadable timestamp, and reads attachments with a url', () => {
    const event = parsed('C2C_MESSAGE_CREATE', {
      author: { user_openid: 'U' },
      id: 'm',
      timestamp: 'yesterday',
      attachments: [{ content_type: 'image/png', filename: 'a.png', size: 10, url: '//multimedia.nt.qq.com/a' }, { content_type: 'file' }],
    });
    const message = toInboundMessage(event, { receivedAt });
    expect(message.text).toBe('');
    expect(message.sentAt).toEqual(receivedAt);
    expect(message.attachments).toEqual([{ url: 'https://multimedia.nt.qq.com/a', contentType: 'image/png', fileName: 'a.png', sizeBytes: 10 }]);
  });

  it('returns failures as values: not JSON, not a payload, a malformed message, an event it does not read', () => {
    expect(parsePayload('{')).toMatchObject({ ok: false });
    expect(parsePayload('"text"')).toMatchObject({ ok: false });
    expect(parseMessageEvent('C2C_MESSAGE_CREATE', { id: 'm', author: {}, timestamp: 't' })).toMatchObject({ ok: false, ignored: false });
    expect(parseMessageEvent('GROUP_AT_MESSAGE_CREATE', { id: 'm', author: { member_openid: 'M' }, timestamp: 't' })).toMatchObject({ ok: false, ignored: false });
    expect(parseMessageEvent('FRIEND_ADD', {})).toMatchObject({ ok: false, ignored: true });
    expect(parseMessageEvent('C2C_MESSAGE_CREATE', { id: 'x'.repeat(300), author: { user_openid: 'U' }, timestamp: 't' })).toMatchObject({ ok: false });
  });

  it('builds a MessageReceived whose chat id says where a reply goes', () => {
    const message = toInboundMessage(parsed('GROUP_AT_MESSAGE_CREATE', { author: { member_openid: 'M1' }, group_openid: 'G1', content: ' hi', id: 'm9', timestamp: '2023-11-06T13:37:18+08:00' }), { receivedAt });
    const event = toMessageReceived(message, { channel: 'qq', now: receivedAt, sessionPerUser: true });
    expect(event).toMatchObject({ type: 'message-received', channel: 'qq', chatId: 'group:G1', sessionKey: 'qq:group:G1:M1', origin: 'user', unattended: false, messageId: 'm9', text: 'hi', isGroup: true, mentioned: true, sender: { id: 'M1' } });
    expect(toMessageReceived(message, { channel: 'qq', now: receivedAt, sessionPerUser: false }).sessionKey).toBe('qq:group:G1');
  });
});
