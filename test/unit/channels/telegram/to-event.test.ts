import { describe, expect, it } from 'vitest';
import { type BotIdentity, type ToEventContext, updateToEvent } from '../../../../channels/telegram/to-event.js';
import { telegramUpdateSchema } from '../../../../channels/telegram/update-schema.js';

const bot: BotIdentity = { id: 666, username: 'EchoBot' };
const context: ToEventContext = { channel: 'telegram', bot, sessionPerUser: false, now: new Date('2030-01-01T10:00:00Z') };
const alice = { id: 1001, is_bot: false, first_name: 'Alice', username: 'alice' };

function translate(update: unknown, overrides: Partial<ToEventContext> = {}) {
  return updateToEvent(telegramUpdateSchema.parse(update), { ...context, ...overrides });
}

function message(fields: Record<string, unknown>, chat: Record<string, unknown> = { id: 1001, type: 'private' }) {
  return { update_id: 7, message: { message_id: 55, date: 0, from: alice, chat, ...fields } };
}

describe('telegram updateToEvent', () => {
  it('turns a private text message into a message-received event with trust flags set by us', () => {
    const translation = translate(message({ text: 'hello' }));
    expect(translation.kind).toBe('message');
    if (translation.kind !== 'message') return;
    expect(translation.event).toMatchObject({
      type: 'message-received',
      channel: 'telegram',
      chatId: '1001',
      sessionKey: 'telegram:1001',
      origin: 'user',
      unattended: false,
      messageId: '55',
      sender: { id: '1001', displayName: '@alice', username: 'alice' },
      text: 'hello',
      media: [],
      isGroup: false,
      mentioned: true,
      at: '2030-01-01T10:00:00.000Z',
    });
    expect(translation.source).toEqual({ chatId: '1001', senderId: '1001', isGroup: false, mentioned: true });
  });

  it('reads captions and keeps photos, documents and voice as media references', () => {
    const translation = translate(
      message({ caption: 'look at this', photo: [{ file_id: 'small', file_size: 10 }, { file_id: 'large', file_size: 900 }], document: { file_id: 'doc', file_name: 'a.pdf', mime_type: 'application/pdf' } }),
    );
    if (translation.kind !== 'message') throw new Error(translation.kind);
    expect(translation.event.text).toBe('look at this');
    expect(translation.event.media).toEqual([
      { kind: 'photo', id: 'large', sizeBytes: 900 },
      { kind: 'document', id: 'doc', fileName: 'a.pdf', mimeType: 'application/pdf' },
    ]);
  });

  it('turns media without a caption into a message with its media, and marks games as unsupported and service messages as ignored', () => {
    const voice = translate(message({ voice: { file_id: 'v1', mime_type: 'audio/ogg', duration: 3 } }));
    if (voice.kind !== 'message') throw new Error(voice.kind);
    expect([voice.event.text, voice.event.media]).toEqual(['', [{ kind: 'voice', id: 'v1', mimeType: 'audio/ogg' }]]);
    const sticker = translate(message({ sticker: { file_id: 's1', emoji: '👍' } }));
    if (sticker.kind !== 'message') throw new Error(sticker.kind);
    expect([sticker.event.text, sticker.event.media]).toEqual(['[Sticker 👍]', [{ kind: 'sticker', id: 's1', mimeType: 'image/webp' }]]);
    const animated = translate(message({ sticker: { file_id: 's2', emoji: '🎉', is_animated: true } }));
    if (animated.kind !== 'message') throw new Error(animated.kind);
    expect([animated.event.text, animated.event.media]).toEqual(['[Sticker 🎉]', []]);
    expect(translate(message({ game: { title: 'Chess' } })).kind).toBe('unsupported');
    expect(translate(message({ new_chat_title: 'x' })).kind).toBe('ignored');
  });

  it('turns locations, places, contacts, polls, dice and videos into short text, without a download', () => {
    const textOf = (fields: Record<string, unknown>) => {
      const translation = translate(message(fields));
      if (translation.kind !== 'message') throw new Error(translation.kind);
      expect(translation.event.media).toEqual([]);
      return translation.event.text;
    };
    expect(textOf({ location: { latitude: 52.52, longitude: 13.4 } })).toBe('[Shared location: 52.52, 13.4]');
    expect(textOf({ location: { latitude: 1, longitude: 2 }, venue: { location: { latitude: 1, longitude: 2 }, title: 'Cafe', address: 'Main St 1' } })).toBe('[Shared place: Cafe, Main St 1 (1, 2)]');
    expect(textOf({ contact: { phone_number: '+4930123', first_name: 'Bob', last_name: 'Lee' } })).toBe('[Shared contact: Bob Lee, phone +4930123]');
    expect(textOf({ poll: { question: 'Lunch?', options: [{ text: 'yes' }, { text: 'no' }] } })).toBe('[Poll: Lunch? Options: yes | no]');
    expect(textOf({ dice: { emoji: '🎲', value: 4 } })).toBe('[Rolled 🎲: 4]');
    expect(textOf({ caption: 'our trip', video: { file_id: 'v', mime_type: 'video/mp4', file_size: 2048, duration: 9 } })).toBe('our trip\n[Video (video/mp4, 2 kB, 9 s): its pictures are not read.]');
  });

  it('takes the largest photo size a bot may download, marks files over 20 MB, and keeps the album id', () => {
    const mebibyte = 1024 * 1024;
    const album = translate(message({ media_group_id: 'album-1', photo: [{ file_id: 'small', file_size: mebibyte }, { file_id: 'huge', file_size: 25 * mebibyte }] }));
    if (album.kind !== 'message') throw new Error(album.kind);
    expect(album.mediaGroupId).toBe('album-1');
    expect(album.event.media).toEqual([{ kind: 'photo', id: 'small', sizeBytes: mebibyte }]);
    const big = translate(message({ document: { file_id: 'big', file_name: 'film.zip', file_size: 30 * mebibyte } }));
    if (big.kind !== 'message') throw new Error(big.kind);
    expect(big.event.media).toEqual([{ kind: 'document', id: 'big', fileName: 'film.zip', sizeBytes: 30 * mebibyte, overPlatformLimit: true }]);
  });

  it('in a group: recognises a mention, strips it, and keys the session per group or per user', () => {
    const group = { id: -100200, type: 'supergroup', title: 'Team' };
    const mentioned = translate(message({ text: '@EchoBot what time is it?' }, group));
    if (mentioned.kind !== 'message') throw new Error(mentioned.kind);
    expect(mentioned.event).toMatchObject({ isGroup: true, mentioned: true, text: 'what time is it?', sessionKey: 'telegram:-100200' });
    const perUser = translate(message({ text: '@echobot hi' }, group), { sessionPerUser: true });
    if (perUser.kind !== 'message') throw new Error(perUser.kind);
    expect(perUser.event.sessionKey).toBe('telegram:-100200:1001');
    const notMentioned = translate(message({ text: 'talking about @EchoBotFan here' }, group));
    expect(notMentioned.kind === 'message' && notMentioned.source.mentioned).toBe(false);
  });

  it('in a group: a reply to the bot and a command named for it count as addressed; a bare command or one for another bot does not', () => {
    const group = { id: -100200, type: 'group' };
    const reply = translate(message({ text: 'and then?', reply_to_message: { message_id: 9, from: { id: 666, is_bot: true, first_name: 'Echo' }, chat: group, text: 'earlier answer' } }, group));
    if (reply.kind !== 'message') throw new Error(reply.kind);
    expect(reply.source.mentioned).toBe(true);
    expect(reply.event.quoted).toEqual({ messageId: '9', text: 'earlier answer', isFromBot: true });
    const command = translate(message({ text: '/approve@EchoBot k3m9 always' }, group));
    expect(command.kind === 'message' && command.source).toMatchObject({ mentioned: true, isApprovalCommand: true });
    // A bare command in a group may be meant for another bot there: not ours unless it replies to or mentions us.
    const bare = translate(message({ text: '/report', entities: [{ offset: 0, length: 7, type: 'bot_command' }] }, group));
    expect(bare.kind === 'message' && bare.source.mentioned).toBe(false);
    const bareReply = translate(message({ text: '/new', reply_to_message: { message_id: 9, from: { id: 666, is_bot: true, first_name: 'Echo' }, chat: group, text: 'earlier answer' } }, group));
    expect(bareReply.kind === 'message' && bareReply.source.mentioned).toBe(true);
    // One of this bot's own commands, bare (an approver typing `/approve <id>`), is for it.
    const own = translate(message({ text: '/approve abc123', entities: [{ offset: 0, length: 8, type: 'bot_command' }] }, group), { ownCommands: ['approve', 'deny'] });
    expect(own.kind === 'message' && own.source.mentioned).toBe(true);
    const otherBare = translate(message({ text: '/report', entities: [{ offset: 0, length: 7, type: 'bot_command' }] }, group), { ownCommands: ['approve', 'deny'] });
    expect(otherBare.kind === 'message' && otherBare.source.mentioned).toBe(false);
    expect(translate(message({ text: '/approvalsx' }, group))).not.toMatchObject({ source: { isApprovalCommand: true } });
    const other = translate(message({ text: '/help@OtherBot' }, group));
    expect(other.kind === 'message' && other.source.mentioned).toBe(false);
  });

  it('in a forum topic: the topic-created service message Telegram sets as reply_to_message is no quote and no reply', () => {
    const forum = { id: -1001234567890, title: 'Team', is_forum: true, type: 'supergroup' };
    // As Telegram sends it: every message in a topic "replies" to the topic's creation unless it replies to something else.
    const topicCreated = { message_id: 118, from: { id: 666, is_bot: true, first_name: 'Echo', username: 'EchoBot' }, chat: forum, date: 1_764_500_000, message_thread_id: 118, forum_topic_created: { name: 'Ops', icon_color: 7_322_096 }, is_topic_message: true };
    const inTopic = translate(message({ message_thread_id: 118, is_topic_message: true, reply_to_message: topicCreated, text: '@EchoBot status?', entities: [{ offset: 0, length: 8, type: 'mention' }] }, forum));
    if (inTopic.kind !== 'message') throw new Error(inTopic.kind);
    expect(inTopic.event.quoted).toBeUndefined();
    expect(inTopic.event).toMatchObject({ text: 'status?', threadId: '118', mentioned: true });
    // The bot opened the topic, but a message in it is not a reply to the bot.
    const unaddressed = translate(message({ message_thread_id: 118, is_topic_message: true, reply_to_message: topicCreated, text: 'just chatting' }, forum));
    expect(unaddressed.kind === 'message' && unaddressed.source.mentioned).toBe(false);
    // A real reply inside the topic is still a quote.
    const reply = translate(message({ message_thread_id: 118, is_topic_message: true, reply_to_message: { message_id: 130, from: alice, chat: forum, message_thread_id: 118, is_topic_message: true, text: 'the deploy failed' }, text: '@EchoBot why?' }, forum));
    expect(reply.kind === 'message' && reply.event.quoted).toEqual({ messageId: '130', text: 'the deploy failed', isFromBot: false });
  });

  it('turns a button press into action-clicked with the callback query id and the card message id', () => {
    const translation = translate({
      update_id: 8,
      callback_query: { id: 'cbq-1', from: alice, data: 'e1:a:k3m9x2p4q7rs:a', message: { message_id: 77, chat: { id: 1001, type: 'private' } } },
    });
    if (translation.kind !== 'action') throw new Error(translation.kind);
    expect(translation.event).toMatchObject({
      type: 'action-clicked',
      action: 'approval',
      actionId: 'k3m9x2p4q7rs',
      choice: 'always',
      cardMessageId: '77',
      acknowledgementId: 'cbq-1',
      chatId: '1001',
      origin: 'user',
      unattended: false,
    });
    const question = translate({ update_id: 9, callback_query: { id: 'cbq-2', from: alice, data: 'e1:q:qqq111:1', message: { message_id: 78, chat: { id: 1001, type: 'private' } } } });
    expect(question.kind === 'action' && question.event).toMatchObject({ action: 'question', actionId: 'qqq111', choice: '1' });
  });

  it('reports presses with unknown or forged data as unknown buttons', () => {
    const translation = translate({ update_id: 10, callback_query: { id: 'cbq-3', from: alice, data: 'e1:a:x:yes' } });
    expect(translation).toMatchObject({ kind: 'unknown-button', callbackQueryId: 'cbq-3', source: { senderId: '1001' } });
  });

  it('ignores messages from bots and channel posts', () => {
    expect(translate(message({ text: 'beep', from: { id: 5, is_bot: true, first_name: 'B' } })).kind).toBe('ignored');
    expect(translate(message({ text: 'news' }, { id: -100300, type: 'channel' })).kind).toBe('ignored');
  });
});
