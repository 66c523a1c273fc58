import { createEnvelope } from '../../src/events/create-envelope.js';
import type { MessageReceived } from '../../src/events/inbound-event.js';
import { createSessionKey } from '../../src/events/session-key.js';
import type { WechatMessageData } from './wechat-message-data.js';

/**
 * Turns an allowed WeChat message into a message event: the chat is the room or the contact. A file (image, voice,
 * document, sticker) becomes a media reference by message id; a video is described, not downloaded. Pure but for the new event id.
 */
export function toEvent(data: WechatMessageData, options: { readonly channel: string; readonly now: Date }): MessageReceived {
  const chatId = data.room?.id ?? data.talker.id;
  return {
    type: 'message-received',
    // Trust flags are ours to set: a WeChat message is a person typing, with a person watching.
    ...createEnvelope({
      channel: options.channel,
      chatId,
      sessionKey: createSessionKey({ channel: options.channel, chatId }),
      origin: 'user',
      now: options.now,
      messageId: data.messageId,
      raw: data,
    }),
    sender: { id: data.talker.id, displayName: displayNameOf(data.talker) },
    text: data.mediaKind === 'video' ? '[Video: its pictures are not read.]' : data.text.trim(),
    media: data.mediaKind && data.mediaKind !== 'video' ? [{ kind: data.mediaKind, id: data.messageId }] : [],
    isGroup: data.room !== undefined,
    mentioned: data.room === undefined ? true : data.mentionsBot,
  };
}

function displayNameOf(talker: WechatMessageData['talker']): string {
  if (talker.alias !== undefined && talker.alias !== '') return talker.alias;
  return talker.name !== '' ? talker.name : talker.id;
}
