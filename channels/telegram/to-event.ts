import { createEnvelope } from '../../src/events/create-envelope.js';
import type { ActionClicked, MediaReference, MessageReceived, Quote } from '../../src/events/inbound-event.js';
import type { Sender } from '../../src/events/sender.js';
import { createSessionKey } from '../../src/events/session-key.js';
import { parseCallbackData } from './callback-data.js';
import type { TelegramCallbackQuery, TelegramMessage, TelegramUpdate, TelegramUser } from './update-schema.js';

/** The bot itself, from getMe: used to tell mentions and replies to the bot apart. */
export type BotIdentity = { readonly id: number; readonly username: string };

/** What translating an update needs besides the update. */
export type ToEventContext = {
  readonly bot: BotIdentity | undefined;
  readonly sessionPerUser: boolean;
  readonly now: Date;
  /** This bot's own commands: a bare one in a group (`/approve abc`) is for it; any other bare command may be another bot's. */
  readonly ownCommands?: readonly string[];
};

/** Where an update came from, for the access decision. */
export type UpdateSource = {
  readonly chatId: string;
  readonly senderId: string;
  readonly isGroup: boolean;
  /** In a group: the bot was mentioned, replied to or given a command. Always true in private chats. */
  readonly mentioned: boolean;
  /** The text is `/approve`, `/deny` or `/approvals`: approvers may send these even when not in allowFrom. */
  readonly isApprovalCommand?: boolean;
};

/** What an update means to the channel. */
export type UpdateTranslation =
  | { readonly kind: 'message'; readonly source: UpdateSource; readonly event: MessageReceived }
  | { readonly kind: 'action'; readonly source: UpdateSource; readonly event: ActionClicked }
  /** A message the agent cannot read (a sticker, a location, media without a caption): answered, never dropped silently. */
  | { readonly kind: 'unsupported'; readonly source: UpdateSource; readonly messageId: string; readonly threadId?: string }
  /** A button whose data is not ours or no longer understood. */
  | { readonly kind: 'unknown-button'; readonly source: UpdateSource; readonly callbackQueryId: string }
  | { readonly kind: 'ignored'; readonly reason: string };

const groupTypes = new Set(['group', 'supergroup']);
const approvalCommandPattern = /^\/(?:approve|deny|approvals)(?:@[A-Za-z0-9_]+)?(?:\s|$)/;
const unreadableKinds = ['sticker', 'video_note', 'animation', 'location', 'venue', 'contact', 'poll', 'dice', 'game', 'story', 'audio', 'video'] as const;

/** Translates a validated Telegram update into an inbound event, or says why there is none. Pure apart from the event id. */
export function updateToEvent(update: TelegramUpdate, context: ToEventContext): UpdateTranslation {
  if (update.callback_query) return callbackToEvent(update, update.callback_query, context);
  if (update.message) return messageToEvent(update, update.message, context);
  return { kind: 'ignored', reason: 'not a message or a button press' };
}

/** The session of a chat: one per private chat, one per group, or one per user in a group. Pure. */
export function telegramSessionKey(chatId: string, senderId: string, isGroup: boolean, sessionPerUser: boolean): string {
  return createSessionKey({ channel: 'telegram', chatId, senderId: isGroup && sessionPerUser ? senderId : undefined });
}

/** A readable sender: `@username`, else the display name. Pure. */
export function toSender(user: TelegramUser): Sender {
  const name = [user.first_name, user.last_name].filter(Boolean).join(' ');
  return { id: String(user.id), displayName: user.username ? `@${user.username}` : name || String(user.id), ...(user.username ? { username: user.username } : {}) };
}

function messageToEvent(update: TelegramUpdate, message: TelegramMessage, context: ToEventContext): UpdateTranslation {
  if (!message.from || message.from.is_bot) return { kind: 'ignored', reason: 'no human sender' };
  if (!groupTypes.has(message.chat.type) && message.chat.type !== 'private') return { kind: 'ignored', reason: `chat type ${message.chat.type}` };
  const isGroup = groupTypes.has(message.chat.type);
  const chatId = String(message.chat.id);
  const senderId = String(message.from.id);
  const rawText = message.text ?? message.caption ?? '';
  const source: UpdateSource = {
    chatId,
    senderId,
    isGroup,
    mentioned: !isGroup || isAddressedToBot(message, rawText, context.bot, context.ownCommands ?? []),
    ...(approvalCommandPattern.test(rawText) ? { isApprovalCommand: true } : {}),
  };
  const messageId = String(message.message_id);
  const threadId = message.is_topic_message && message.message_thread_id !== undefined ? String(message.message_thread_id) : undefined;
  const media = mediaOf(message);
  const text = stripBotMention(rawText, context.bot).trim();
  if (text === '') {
    const hasContent = media.length > 0 || unreadableKinds.some((kind) => message[kind] !== undefined);
    return hasContent ? { kind: 'unsupported', source, messageId, threadId } : { kind: 'ignored', reason: 'no text (a service message)' };
  }
  const event: MessageReceived = {
    type: 'message-received',
    // Trust flags are ours: a person typed this, and a person is there to approve.
    ...createEnvelope({
      channel: 'telegram',
      chatId,
      sessionKey: telegramSessionKey(chatId, senderId, isGroup, context.sessionPerUser),
      origin: 'user',
      now: context.now,
      messageId,
      threadId,
      raw: update,
    }),
    sender: toSender(message.from),
    text,
    media,
    isGroup,
    mentioned: source.mentioned,
    ...(quoteOf(message, context.bot) ?? {}),
  };
  return { kind: 'message', source, event };
}

function callbackToEvent(update: TelegramUpdate, query: TelegramCallbackQuery, context: ToEventContext): UpdateTranslation {
  const chat = query.message?.chat;
  const isGroup = chat !== undefined && groupTypes.has(chat.type);
  const chatId = String(chat?.id ?? query.from.id);
  const senderId = String(query.from.id);
  const source: UpdateSource = { chatId, senderId, isGroup, mentioned: true };
  const action = parseCallbackData(query.data);
  if (!action) return { kind: 'unknown-button', source, callbackQueryId: query.id };
  const threadId = query.message?.message_thread_id;
  const event: ActionClicked = {
    type: 'action-clicked',
    ...createEnvelope({
      channel: 'telegram',
      chatId,
      sessionKey: telegramSessionKey(chatId, senderId, isGroup, context.sessionPerUser),
      origin: 'user',
      now: context.now,
      threadId: threadId === undefined ? undefined : String(threadId),
      raw: update,
    }),
    sender: toSender(query.from),
    action: action.kind,
    actionId: action.kind === 'approval' ? action.approvalId : action.questionId,
    choice: action.kind === 'approval' ? action.choice : String(action.optionIndex),
    ...(query.message?.message_id === undefined ? {} : { cardMessageId: String(query.message.message_id) }),
    acknowledgementId: query.id,
  };
  return { kind: 'action', source, event };
}

function isAddressedToBot(message: TelegramMessage, text: string, bot: BotIdentity | undefined, ownCommands: readonly string[]): boolean {
  const command = /^\/([A-Za-z0-9_]+)(?:@([A-Za-z0-9_]+))?/.exec(text);
  // `/cmd@name` is for the bot named; a bare `/cmd` may be for any bot in the group, so it is ours only
  // when it is one of our own commands, or replies to or mentions us (checked below).
  if (command?.[2] !== undefined) return bot !== undefined && command[2].toLowerCase() === bot.username.toLowerCase();
  if (command?.[1] !== undefined && ownCommands.includes(command[1].toLowerCase())) return true;
  if (!bot) return false;
  if (replyOf(message)?.from?.id === bot.id) return true;
  const entities = [...(message.entities ?? []), ...(message.caption_entities ?? [])];
  if (entities.some((entity) => entity.type === 'text_mention' && entity.user?.id === bot.id)) return true;
  return mentionPattern(bot).test(text);
}

function stripBotMention(text: string, bot: BotIdentity | undefined): string {
  if (!bot) return text;
  return text.replace(new RegExp(mentionPattern(bot).source, 'gi'), ' ').replace(/[ \t]{2,}/g, ' ');
}

function mentionPattern(bot: BotIdentity): RegExp {
  // Usernames are letters, digits and underscores, so the name needs no escaping.
  return new RegExp(`(?<![A-Za-z0-9_/])@${bot.username.replace(/[^A-Za-z0-9_]/g, '')}(?![A-Za-z0-9_])`, 'i');
}

function mediaOf(message: TelegramMessage): MediaReference[] {
  const media: MediaReference[] = [];
  const largestPhoto = message.photo?.at(-1);
  if (largestPhoto) media.push({ kind: 'photo', id: largestPhoto.file_id, ...sizeOf(largestPhoto.file_size) });
  if (message.document) media.push({ kind: 'document', id: message.document.file_id, ...describeFile(message.document) });
  if (message.voice) media.push({ kind: 'voice', id: message.voice.file_id, ...describeFile(message.voice) });
  return media;
}

function describeFile(file: { file_name?: string; mime_type?: string; file_size?: number }): Partial<MediaReference> {
  return { ...(file.file_name ? { fileName: file.file_name } : {}), ...(file.mime_type ? { mimeType: file.mime_type } : {}), ...sizeOf(file.file_size) };
}

function sizeOf(size: number | undefined): { sizeBytes?: number } {
  return size === undefined ? {} : { sizeBytes: size };
}

/**
 * The message this one answers, if the person chose one. In a forum topic Telegram sets the topic's
 * creation (a service message) as `reply_to_message` of every message that is not an explicit reply:
 * that is no reply.
 */
function replyOf(message: TelegramMessage): TelegramMessage['reply_to_message'] {
  const replied = message.reply_to_message;
  if (!replied) return undefined;
  if (replied.forum_topic_created !== undefined) return undefined;
  if (message.is_topic_message === true && replied.message_id === message.message_thread_id) return undefined;
  return replied;
}

function quoteOf(message: TelegramMessage, bot: BotIdentity | undefined): { quoted: Quote } | undefined {
  const replied = replyOf(message);
  if (!replied) return undefined;
  const text = replied.text ?? replied.caption ?? '';
  return { quoted: { messageId: String(replied.message_id), text, isFromBot: bot !== undefined && replied.from?.id === bot.id } };
}
