import { createEnvelope } from '../../src/events/create-envelope.js';
import type { MediaReference, MessageReceived } from '../../src/events/inbound-event.js';
import { createSessionKey } from '../../src/events/session-key.js';
import { toQqChatId } from './qq-chat-id.js';
import type { QqInboundMessage } from './to-inbound-message.js';

// The one file that knows echo-agent's event types: the rest of channels/qq speaks QqInboundMessage.

/** What building an event needs besides the message. */
export type QqToEventContext = {
  /** The channel's name, as the core hands it over. */
  readonly channel: string;
  readonly now: Date;
  /** In groups, one session per member rather than one per group. */
  readonly sessionPerUser: boolean;
  readonly raw?: unknown;
};

/** Builds the runtime's MessageReceived from a QQ message. Trust flags are ours: a person typed this. */
export function toMessageReceived(message: QqInboundMessage, context: QqToEventContext): MessageReceived {
  const isGroup = message.scene === 'group';
  const chatId = toQqChatId(message.groupOpenid === undefined ? { scene: 'c2c', openid: message.authorOpenid } : { scene: 'group', groupOpenid: message.groupOpenid });
  return {
    type: 'message-received',
    ...createEnvelope({
      channel: context.channel,
      chatId,
      sessionKey: createSessionKey({ channel: context.channel, chatId, ...(isGroup && context.sessionPerUser ? { senderId: message.authorOpenid } : {}) }),
      origin: 'user',
      now: context.now,
      messageId: message.messageId,
      ...(context.raw === undefined ? {} : { raw: context.raw }),
    }),
    // QQ gives bots openids only, never a QQ number or a name.
    sender: { id: message.authorOpenid, displayName: message.authorOpenid },
    text: message.text,
    media: message.attachments.map((attachment): MediaReference => ({
      kind: attachment.contentType?.startsWith('image/') ? 'photo' : attachment.contentType === 'voice' ? 'voice' : attachment.contentType?.startsWith('video/') ? 'video' : 'document',
      id: attachment.url,
      ...(attachment.fileName === undefined ? {} : { fileName: attachment.fileName }),
      ...(attachment.contentType === undefined || !attachment.contentType.includes('/') ? {} : { mimeType: attachment.contentType }),
      ...(attachment.sizeBytes === undefined ? {} : { sizeBytes: attachment.sizeBytes }),
    })),
    isGroup,
    // Groups deliver only @-messages to the bot.
    mentioned: true,
  };
}
