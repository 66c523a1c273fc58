import type { QqAttachment, QqMessageEvent } from './message-event-schema.js';

/** Where a QQ message was written: a private chat (C2C) or a group where the bot was @-mentioned. */
export type QqScene = 'c2c' | 'group';

/** A file the person attached, described; downloading it is the channel's business. */
export type QqInboundAttachment = { readonly url: string; readonly contentType?: string; readonly fileName?: string; readonly sizeBytes?: number };

/** A QQ message in plain terms, free of the platform's field names and of any echo-agent event type. */
export type QqInboundMessage = {
  readonly scene: QqScene;
  /** `user_openid` in a private chat, `member_openid` (this group's id of the person) in a group. */
  readonly authorOpenid: string;
  /** Set in groups. */
  readonly groupOpenid?: string;
  /** The text, with the leading bot mention and surrounding blanks removed. */
  readonly text: string;
  /** The platform message id: the `msg_id` a passive reply must name. */
  readonly messageId: string;
  /** When the person sent it (the reply window counts from here); the receipt time when QQ's timestamp is unreadable. */
  readonly sentAt: Date;
  /** The dispatch's event id, when it came with one. */
  readonly eventId?: string;
  readonly attachments: readonly QqInboundAttachment[];
};

// A leading `<@!id>` / `<@id>` is the bot's own mention where QQ leaves it in; other mentions are the person's text.
const leadingMention = /^\s*(?:<@!?[A-Za-z0-9_-]{1,128}>\s*)+/;

/** Describes a validated message event. Pure: `receivedAt` stands in when QQ's timestamp cannot be read. */
export function toInboundMessage(event: QqMessageEvent, context: { readonly receivedAt: Date; readonly eventId?: string }): QqInboundMessage {
  const common = {
    text: event.data.content.replace(leadingMention, '').trim(),
    messageId: event.data.id,
    sentAt: readTimestamp(event.data.timestamp) ?? context.receivedAt,
    ...(context.eventId === undefined ? {} : { eventId: context.eventId }),
    attachments: (event.data.attachments ?? []).flatMap(toAttachment),
  };
  if (event.type === 'C2C_MESSAGE_CREATE') return { scene: 'c2c', authorOpenid: event.data.author.user_openid, ...common };
  return { scene: 'group', authorOpenid: event.data.author.member_openid, groupOpenid: event.data.group_openid, ...common };
}

function readTimestamp(value: string): Date | undefined {
  // RFC 3339 in the docs; unix seconds seen in the wild.
  const date = /^\d{1,13}$/.test(value) ? new Date(Number(value) * (value.length > 10 ? 1 : 1000)) : new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

function toAttachment(attachment: QqAttachment): QqInboundAttachment[] {
  if (attachment.url === undefined || attachment.url === '') return [];
  // QQ has sent protocol-relative and plain-http links; downloads go over https.
  const url = attachment.url.startsWith('//') ? `https:${attachment.url}` : attachment.url;
  return [
    {
      url,
      ...(attachment.content_type === undefined ? {} : { contentType: attachment.content_type }),
      ...(attachment.filename === undefined ? {} : { fileName: attachment.filename }),
      ...(attachment.size === undefined ? {} : { sizeBytes: attachment.size }),
    },
  ];
}
