import { z } from 'zod';

// Only the fields the channel reads are declared; zod strips the rest (the raw update is kept on the event).

const userSchema = z.object({
  id: z.number().int(),
  is_bot: z.boolean().optional(),
  first_name: z.string().optional(),
  last_name: z.string().optional(),
  username: z.string().optional(),
});

const chatSchema = z.object({
  id: z.number().int(),
  type: z.string(),
  title: z.string().optional(),
});

const entitySchema = z.object({
  type: z.string(),
  offset: z.number().int(),
  length: z.number().int(),
  user: userSchema.optional(),
});

const fileSchema = z.object({
  file_id: z.string(),
  file_size: z.number().optional(),
  file_name: z.string().optional(),
  mime_type: z.string().optional(),
});

const messageShape = {
  message_id: z.number().int(),
  message_thread_id: z.number().int().optional(),
  is_topic_message: z.boolean().optional(),
  from: userSchema.optional(),
  chat: chatSchema,
  text: z.string().optional(),
  caption: z.string().optional(),
  entities: z.array(entitySchema).optional(),
  caption_entities: z.array(entitySchema).optional(),
  photo: z.array(fileSchema).optional(),
  document: fileSchema.optional(),
  voice: fileSchema.optional(),
  audio: fileSchema.optional(),
  video: fileSchema.optional(),
  // Content kinds the agent cannot read: their presence is enough to answer "I can't read this yet".
  sticker: z.unknown().optional(),
  video_note: z.unknown().optional(),
  animation: z.unknown().optional(),
  location: z.unknown().optional(),
  venue: z.unknown().optional(),
  contact: z.unknown().optional(),
  poll: z.unknown().optional(),
  dice: z.unknown().optional(),
  game: z.unknown().optional(),
  story: z.unknown().optional(),
  // The service message that opened a forum topic: Telegram sets it as reply_to_message of every message in the topic.
  forum_topic_created: z.unknown().optional(),
};

const quotedMessageSchema = z.object({ ...messageShape, chat: chatSchema.optional() });

const messageSchema = z.object({ ...messageShape, reply_to_message: quotedMessageSchema.optional() });

const callbackQuerySchema = z.object({
  id: z.string(),
  from: userSchema,
  // An old or inaccessible message may come without most fields.
  message: z.object({ message_id: z.number().int().optional(), message_thread_id: z.number().int().optional(), chat: chatSchema.optional() }).optional(),
  data: z.string().optional(),
});

/** The part of a Telegram Update the channel reads; validated at the edge (polling and webhook). */
export const telegramUpdateSchema = z.object({
  update_id: z.number().int().nonnegative(),
  message: messageSchema.optional(),
  callback_query: callbackQuerySchema.optional(),
});

/**
 * The update kinds to ask Telegram for (getUpdates and setWebhook `allowed_updates`): exactly the ones the
 * schema above reads, so the subscription cannot drift from what the channel handles. Telegram remembers
 * the list of the last call, so it is always sent.
 */
export const telegramAllowedUpdates: readonly string[] = Object.keys(telegramUpdateSchema.shape).filter((key) => key !== 'update_id');

/** A validated Telegram update. */
export type TelegramUpdate = z.output<typeof telegramUpdateSchema>;
/** A validated Telegram message. */
export type TelegramMessage = z.output<typeof messageSchema>;
/** A Telegram user as the channel reads it. */
export type TelegramUser = z.output<typeof userSchema>;
/** A Telegram callback query (a button press). */
export type TelegramCallbackQuery = z.output<typeof callbackQuerySchema>;
