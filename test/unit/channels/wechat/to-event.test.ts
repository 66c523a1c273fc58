import { describe, expect, it } from 'vitest';
import { checkAccess, toEvent, type WechatMessageData } from '../../../../channels/wechat/index.js';

const now = new Date('2030-01-02T03:04:05.000Z');

function data(overrides: Partial<WechatMessageData> = {}): WechatMessageData {
  return {
    messageId: 'm-1',
    kind: 'text',
    text: '  hello  ',
    talker: { id: 'wxid_alice', name: 'Alice Nick' },
    mentionsBot: false,
    isSelf: false,
    sentAt: now.toISOString(),
    ...overrides,
  };
}

describe('toEvent', () => {
  it('turns a private message into a message-received event of the contact chat, with trust flags set by us', () => {
    const event = toEvent(data(), { channel: 'wechat', now });
    expect(event).toMatchObject({
      type: 'message-received',
      channel: 'wechat',
      chatId: 'wxid_alice',
      sessionKey: 'wechat:wxid_alice',
      origin: 'user',
      unattended: false,
      messageId: 'm-1',
      sender: { id: 'wxid_alice', displayName: 'Alice Nick' },
      text: 'hello',
      media: [],
      isGroup: false,
      mentioned: true,
      at: now.toISOString(),
    });
    expect(event.id).toBe(event.traceId);
  });

  it('uses the room as the chat in a group and keeps whether the bot was mentioned', () => {
    const event = toEvent(data({ room: { id: 'team@chatroom', topic: 'Team' }, mentionsBot: true, text: '1' }), { channel: 'wechat', now });
    expect(event).toMatchObject({ chatId: 'team@chatroom', sessionKey: 'wechat:team@chatroom', isGroup: true, mentioned: true, text: '1', sender: { id: 'wxid_alice' } });
  });

  it("prefers the owner's alias for the display name", () => {
    expect(toEvent(data({ talker: { id: 'wxid_alice', name: 'Nick', alias: 'Alice (work)' } }), { channel: 'wechat', now }).sender.displayName).toBe('Alice (work)');
    expect(toEvent(data({ talker: { id: 'wxid_x', name: '' } }), { channel: 'wechat', now }).sender.displayName).toBe('wxid_x');
  });

  it('never reads trust flags from the payload', () => {
    const hostile = { ...data(), origin: 'schedule', unattended: true } as unknown as WechatMessageData;
    const event = toEvent(hostile, { channel: 'wechat', now });
    expect(event.origin).toBe('user');
    expect(event.unattended).toBe(false);
  });
});

describe('checkAccess', () => {
  const policy = { allowFrom: ['wxid_alice', 'Bob (remark)'], rooms: ['team@chatroom'] };

  it('lets listed contacts in by id, or by the alias the owner gave them', () => {
    expect(checkAccess(data(), policy)).toEqual({ allowed: true });
    expect(checkAccess(data({ talker: { id: 'wxid_bob', name: 'Bob', alias: 'Bob (remark)' } }), policy)).toEqual({ allowed: true });
  });

  it("keeps strangers out, even when their own nickname matches an allowed alias", () => {
    expect(checkAccess(data({ talker: { id: 'wxid_mallory', name: 'Bob (remark)' } }), policy)).toEqual({ allowed: false, reason: 'stranger' });
  });

  it('never answers its own messages', () => {
    expect(checkAccess(data({ isSelf: true }), policy)).toEqual({ allowed: false, reason: 'own-message' });
  });

  it('answers in listed rooms only, only when mentioned, and only to allowed members', () => {
    const room = { id: 'team@chatroom', topic: 'Team' };
    expect(checkAccess(data({ room, mentionsBot: true }), policy)).toEqual({ allowed: true });
    expect(checkAccess(data({ room, mentionsBot: true, talker: { id: 'wxid_anyone', name: 'Anyone' } }), policy)).toEqual({ allowed: false, reason: 'stranger' });
    expect(checkAccess(data({ room, mentionsBot: true, talker: { id: 'wxid_anyone', name: 'Anyone' } }), { ...policy, roomPolicy: 'open' })).toEqual({ allowed: true });
    expect(checkAccess(data({ room, mentionsBot: false }), policy)).toEqual({ allowed: false, reason: 'not-mentioned' });
    expect(checkAccess(data({ room: { id: 'other@chatroom', topic: 'Other' }, mentionsBot: true }), policy)).toEqual({ allowed: false, reason: 'room-not-allowed' });
  });
});
