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

// Kinds read for their content; lenient: a shape Telegram changes is dropped (and the message says less), never the update.
const photoSizeSchema = z.object({ file_id: z.string(), file_size: z.number().optional(), width: z.number().optional(), height: z.number().optional() });
const mediaFileSchema = fileSchema.extend({ duration: z.number().optional(), title: z.string().optional(), performer: z.string().optional() });
const stickerSchema = z.object({ file_id: z.string(), file_size: z.number().optional(), emoji: z.string().optional(), is_animated: z.boolean().optional(), is_video: z.boolean().optional() });
const locationSchema = z.object({ latitude: z.number(), longitude: z.number() });
const lenient = <Schema extends z.ZodType>(schema: Schema) => schema.optional().catch(undefined);

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
  media_group_id: z.string().optional(),
  photo: lenient(z.array(photoSizeSchema)),
  document: lenient(fileSchema),
  voice: lenient(mediaFileSchema),
  audio: lenient(mediaFileSchema),
  video: lenient(mediaFileSchema),
  video_note: lenient(mediaFileSchema),
  animation: lenient(mediaFileSchema),
  sticker: lenient(stickerSchema),
  location: lenient(locationSchema),
  venue: lenient(z.object({ location: locationSchema, title: z.string(), address: z.string().optional() })),
  contact: lenient(z.object({ phone_number: z.string(), first_name: z.string(), last_name: z.string().optional(), user_id: z.number().optional() })),
  poll: lenient(z.object({ question: z.string(), options: z.array(z.object({ text: z.string(), voter_count: z.number().optional() })) })),
  dice: lenient(z.object({ emoji: z.string(), value: z.number() })),
  // Content kinds the agent cannot read: their presence is enough to answer "I can't read this yet".
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
