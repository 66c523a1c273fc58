import { z } from 'zod';
import { createChannelConfigSection } from '../../src/config/channel-config-section.js';
import { commaList, flexibleBoolean, optionalText } from '../../src/config/comma-list.js';
import { toolSelectionSchema } from '../../src/config/config-schema.js';

const telegramSchema = z.strictObject({
  token: optionalText.describe('Bot token from @BotFather; without it the channel is off.'),
  apiRoot: z.string().url().default('https://api.telegram.org').describe('Bot API server (a local one, or an emulator).'),
  mode: z.enum(['polling', 'webhook']).default('polling').describe('How updates arrive.'),
  webhookUrl: optionalText.describe('Public https URL Telegram posts to, in webhook mode.'),
  webhookSecret: optionalText.describe('secret_token Telegram sends with webhook updates.'),
  allowFrom: commaList.default([]).describe('Numeric user ids that reach the model.'),
  approvers: commaList.default([]).describe('Numeric user ids that may decide approvals; empty: the requester decides.'),
  groups: commaList.default([]).describe('Group chat ids the bot answers in (when mentioned).'),
  sessionPerUser: flexibleBoolean.default(false).describe('In groups, one session per user instead of one per group.'),
  streaming: flexibleBoolean.default(false).describe('Edit one draft message in place while the model writes.'),
  albumWindowMs: z.coerce.number().int().min(0).default(1000).describe('How long the parts of an album (media_group_id) are collected into one message.'),
  limits: z
    .strictObject({
      perChatPerSecond: z.coerce.number().positive().default(1),
      perChatBurst: z.coerce.number().int().min(1).default(3),
      perGroupPerMinute: z.coerce.number().positive().default(20),
      globalPerSecond: z.coerce.number().positive().default(30),
    })
    .prefault({})
    .describe("Send limits; the defaults are Telegram's own. Raise them only for a local Bot API server."),
  tools: toolSelectionSchema.partial().optional().describe('Tool selection for this channel.'),
});

/** `channels.telegram`: the schema, its environment variables, its secrets. The channel's name is written here once. */
export const telegramConfig = createChannelConfigSection({
  name: 'telegram',
  schema: telegramSchema,
  environment: {
    token: 'TELEGRAM_BOT_TOKEN',
    apiRoot: 'TELEGRAM_API_ROOT',
    allowFrom: 'TELEGRAM_ALLOW_FROM',
    approvers: 'TELEGRAM_APPROVERS',
    groups: 'TELEGRAM_GROUPS',
    sessionPerUser: 'TELEGRAM_SESSION_PER_USER',
    streaming: 'TELEGRAM_STREAMING',
    mode: 'TELEGRAM_MODE',
    webhookUrl: 'TELEGRAM_WEBHOOK_URL',
    webhookSecret: 'TELEGRAM_WEBHOOK_SECRET',
  },
  secrets: ['token', 'webhookSecret'],
});

/** The `channels.telegram` section, validated. */
export type TelegramConfig = z.output<typeof telegramSchema>;
