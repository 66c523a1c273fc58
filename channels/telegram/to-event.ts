import { createEnvelope } from '../../src/events/create-envelope.js';
import type { ActionClicked, MediaReference, MessageReceived, Quote } from '../../src/events/inbound-event.js';
import type { Sender } from '../../src/events/sender.js';
import { createSessionKey } from '../../src/events/session-key.js';
import { assertNever } from '../../src/events/assert-never.js';
import { type CallbackAction, parseCallbackData } from './callback-data.js';
import { telegramDownloadLimitBytes } from './media-download.js';
import type { TelegramCallbackQuery, TelegramMessage, TelegramUpdate, TelegramUser } from './update-schema.js';

/** The bot itself, from getMe: used to tell mentions and replies to the bot apart. */
export type BotIdentity = { readonly id: number; readonly username: string };

/** What translating an update needs besides the update. */
export type ToEventContext = {
  /** The channel's name, as the core hands it over: on every envelope and session key. */
  readonly channel: string;
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
  /** `mediaGroupId`: a part of an album; the parts are joined into one message before they are emitted. */
  | { readonly kind: 'message'; readonly source: UpdateSource; readonly event: MessageReceived; readonly mediaGroupId?: string }
  | { readonly kind: 'action'; readonly source: UpdateSource; readonly event: ActionClicked }
  /** A message the agent cannot read (a game, a story): answered, never dropped silently. */
  | { readonly kind: 'unsupported'; readonly source: UpdateSource; readonly messageId: string; readonly threadId?: string }
  /** A button whose data is not ours or no longer understood. */
  | { readonly kind: 'unknown-button'; readonly source: UpdateSource; readonly callbackQueryId: string }
  | { readonly kind: 'ignored'; readonly reason: string };

const groupTypes = new Set(['group', 'supergroup']);
const approvalCommandPattern = /^\/(?:approve|deny|approvals)(?:@[A-Za-z0-9_]+)?(?:\s|$)/;
const unreadableKinds = ['game', 'story'] as const;

/** Translates a validated Telegram update into an inbound event, or says why there is none. Pure apart from the event id. */
export function updateToEvent(update: TelegramUpdate, context: ToEventContext): UpdateTranslation {
  if (update.callback_query) return callbackToEvent(update, update.callback_query, context);
  if (update.message) return messageToEvent(update, update.message, context);
  return { kind: 'ignored', reason: 'not a message or a button press' };
}

/** The session of a chat: one per private chat, one per group, or one per user in a group. Pure. */
export function telegramSessionKey(chatId: string, senderId: string, isGroup: boolean, context: Pick<ToEventContext, 'channel' | 'sessionPerUser'>): string {
  return createSessionKey({ channel: context.channel, chatId, senderId: isGroup && context.sessionPerUser ? senderId : undefined });
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
  const text = [stripBotMention(rawText, context.bot).trim(), ...describeContent(message)].filter((part) => part !== '').join('\n');
  if (text === '' && media.length === 0) {
    const hasContent = unreadableKinds.some((kind) => message[kind] !== undefined);
    return hasContent ? { kind: 'unsupported', source, messageId, threadId } : { kind: 'ignored', reason: 'no text (a service message)' };
  }
  const event: MessageReceived = {
    type: 'message-received',
    // Trust flags are ours: a person typed this, and a person is there to approve.
    ...createEnvelope({
      channel: context.channel,
      chatId,
      sessionKey: telegramSessionKey(chatId, senderId, isGroup, context),
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
  return { kind: 'message', source, event, ...(message.media_group_id === undefined ? {} : { mediaGroupId: message.media_group_id }) };
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
      channel: context.channel,
      chatId,
      sessionKey: telegramSessionKey(chatId, senderId, isGroup, context),
      origin: 'user',
      now: context.now,
      threadId: threadId === undefined ? undefined : String(threadId),
      raw: update,
    }),
    sender: toSender(query.from),
    action: action.kind,
    ...pressOf(action),
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
  // The largest size a bot may download; a photo whose every size is over it is described, not fetched.
  const sizes = message.photo ?? [];
  const photo = sizes.filter((size) => (size.file_size ?? 0) <= telegramDownloadLimitBytes).at(-1) ?? sizes[0];
  if (photo) media.push(fileReference('photo', photo));
  if (message.document) media.push(fileReference('document', message.document));
  if (message.voice) media.push(fileReference('voice', message.voice));
  if (message.audio) media.push(fileReference('audio', { ...message.audio, file_name: message.audio.file_name ?? audioTitle(message.audio) }));
  if (message.video_note) media.push(fileReference('video-note', message.video_note));
  // Animated and video stickers are not images: their emoji says what they mean (describeContent).
  if (message.sticker && !message.sticker.is_animated && !message.sticker.is_video) media.push(fileReference('sticker', { ...message.sticker, mime_type: 'image/webp' }));
  return media;
}

function fileReference(kind: MediaReference['kind'], file: { file_id: string; file_name?: string; mime_type?: string; file_size?: number }): MediaReference {
  return {
    kind,
    id: file.file_id,
    ...(file.file_name ? { fileName: file.file_name } : {}),
    ...(file.mime_type ? { mimeType: file.mime_type } : {}),
    ...(file.file_size === undefined ? {} : { sizeBytes: file.file_size }),
    ...((file.file_size ?? 0) > telegramDownloadLimitBytes ? { overPlatformLimit: true } : {}),
  };
}

function audioTitle(audio: { title?: string; performer?: string }): string | undefined {
  const title = [audio.performer, audio.title].filter(Boolean).join(' - ');
  return title === '' ? undefined : title;
}

/** Content that is text already, or is described without a download (locations, contacts, polls, videos). Pure. */
function describeContent(message: TelegramMessage): string[] {
  const lines: string[] = [];
  if (message.location && !message.venue) lines.push(`[Shared location: ${message.location.latitude}, ${message.location.longitude}]`);
  if (message.venue) lines.push(`[Shared place: ${message.venue.title}${message.venue.address ? `, ${message.venue.address}` : ''} (${message.venue.location.latitude}, ${message.venue.location.longitude})]`);
  if (message.contact) {
    const name = [message.contact.first_name, message.contact.last_name].filter(Boolean).join(' ');
    lines.push(`[Shared contact: ${name}, phone ${message.contact.phone_number}]`);
  }
  if (message.poll) lines.push(`[Poll: ${message.poll.question} Options: ${message.poll.options.map((option) => option.text).join(' | ')}]`);
  if (message.dice) lines.push(`[Rolled ${message.dice.emoji}: ${message.dice.value}]`);
  if (message.sticker) lines.push(`[Sticker${message.sticker.emoji ? ` ${message.sticker.emoji}` : ''}]`);
  if (message.video) lines.push(`[${describeVideo('Video', message.video)}: its pictures are not read.]`);
  if (message.animation) lines.push(`[${describeVideo('Animation (GIF)', message.animation)}: its pictures are not read.]`);
  return lines;
}

function describeVideo(kind: string, video: { file_name?: string; mime_type?: string; file_size?: number; duration?: number }): string {
  const parts = [video.mime_type, video.file_size === undefined ? undefined : `${Math.round(video.file_size / 1024)} kB`, video.duration === undefined ? undefined : `${video.duration} s`].filter(Boolean);
  return `${kind}${video.file_name ? ` "${video.file_name.replace(/["\r\n[\]]/g, ' ')}"` : ''}${parts.length > 0 ? ` (${parts.join(', ')})` : ''}`;
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

/** The id and choice a parsed button carries. Pure. */
function pressOf(action: CallbackAction): { readonly actionId: string; readonly choice: string } {
  switch (action.kind) {
    case 'approval':
      return { actionId: action.approvalId, choice: action.choice };
    case 'question':
      return { actionId: action.questionId, choice: String(action.optionIndex) };
    case 'memory-forget':
      return { actionId: action.factId, choice: 'forget' };
    default:
      return assertNever(action, 'telegram button');
  }
}
