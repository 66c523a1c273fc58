import { z } from 'zod';
import { createChannelConfigSection } from '../../src/config/channel-config-section.js';
import { commaList, flexibleBoolean, optionalText } from '../../src/config/comma-list.js';
import { toolSelectionSchema } from '../../src/config/config-schema.js';

/** Where signed messages are posted on the gateway. */
export const webhookMessagePath = '/v1/messages';

const webhookSchema = z.strictObject({
  secret: optionalText.describe('HMAC secret; without it POST /v1/messages is off.'),
  waitTimeoutMs: z.coerce.number().int().positive().default(120_000).describe('Longest ?wait=true hold.'),
  ratePerMinute: z.coerce.number().int().positive().default(60).describe('Messages per sender per minute.'),
  globalRatePerMinute: z.coerce.number().int().positive().default(600).describe('Messages per minute from all senders together (sender ids are chosen by callers).'),
  legacySignature: flexibleBoolean
    .default(false)
    .describe('Also accept requests signed over the old string timestamp.body (without the Idempotency-Key); for migrating callers only.'),
  callbackAllowHosts: commaList.default([]).describe('Hosts callbacks may reach although they are not public addresses (an internal receiver).'),
  tools: toolSelectionSchema.partial().optional().describe('Tool selection for webhook turns.'),
  clientName: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,64}$/, 'letters, digits, _ . and - only')
    .default('client')
    .describe('The caller the secret belongs to: webhook turns count for user and chat webhook:<clientName> in budgets and /usage, whatever senderId and chatId a request sends.'),
});

/** `channels.webhook`: the schema, its environment variables, its secrets. The channel's name is written here once. */
export const webhookConfig = createChannelConfigSection({
  name: 'webhook',
  schema: webhookSchema,
  environment: {
    secret: 'WEBHOOK_SECRET',
    globalRatePerMinute: 'WEBHOOK_GLOBAL_RATE_PER_MINUTE',
    legacySignature: 'WEBHOOK_LEGACY_SIGNATURE',
    callbackAllowHosts: 'WEBHOOK_CALLBACK_ALLOW_HOSTS',
  },
  secrets: ['secret'],
  // The HTTP gateway is core now (`gateway` section); its variables were the webhook channel's.
  renamedVariables: { WEBHOOK_HOST: 'GATEWAY_HOST', WEBHOOK_PORT: 'GATEWAY_PORT', WEBHOOK_METRICS_TOKEN: 'GATEWAY_METRICS_TOKEN' },
});

/** The `channels.webhook` section, validated. */
export type WebhookConfig = z.output<typeof webhookSchema>;
