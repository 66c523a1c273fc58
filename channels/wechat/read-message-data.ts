import type { Message } from 'wechaty';
import type { MediaReference } from '../../src/events/inbound-event.js';
import type { WechatyModule } from './load-wechaty.js';
import type { WechatMessageData } from './wechat-message-data.js';

/** The SDK's message kinds, as the loaded wechaty module exposes them. */
export type WechatMessageTypes = WechatyModule['types']['Message'];

/** Reads what the channel needs out of a wechaty Message (the SDK may fetch contact and room details). */
export async function readMessageData(message: Message, messageTypes: WechatMessageTypes): Promise<WechatMessageData> {
  const talker = message.talker();
  const room = message.room();
  const isText = message.type() === messageTypes.Text;
  const mediaKind = mediaKindOf(message.type(), messageTypes);
  return {
    messageId: message.id,
    kind: isText ? 'text' : kindOf(message.type(), messageTypes),
    ...(mediaKind ? { mediaKind } : {}),
    // In rooms the text carries "@bot "; mentionText() removes the mentions so "@bot 1" reads as "1".
    text: isText ? (room ? await message.mentionText() : message.text()) : '',
    talker: { id: talker.id, name: talker.name(), alias: (await talker.alias()) ?? undefined },
    room: room ? { id: room.id, topic: await room.topic().catch(() => '') } : undefined,
    mentionsBot: room && isText ? await message.mentionSelf() : false,
    isSelf: message.self(),
    sentAt: message.date().toISOString(),
  };
}

function mediaKindOf(type: number, messageTypes: WechatMessageTypes): MediaReference['kind'] | undefined {
  if (type === messageTypes.Image) return 'photo';
  if (type === messageTypes.Audio) return 'voice';
  if (type === messageTypes.Video) return 'video';
  if (type === messageTypes.Attachment) return 'document';
  if (type === messageTypes.Emoticon) return 'sticker';
  return undefined;
}

function kindOf(type: number, messageTypes: WechatMessageTypes): WechatMessageData['kind'] {
  const media: readonly number[] = [messageTypes.Image, messageTypes.Audio, messageTypes.Video, messageTypes.Attachment, messageTypes.Emoticon];
  return media.includes(type) ? 'media' : 'other';
}
