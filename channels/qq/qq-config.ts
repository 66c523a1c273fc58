import { z } from 'zod';
import { createChannelConfigSection } from '../../src/config/channel-config-section.js';
import { commaList, optionalText } from '../../src/config/comma-list.js';
import { toolSelectionSchema } from '../../src/config/config-schema.js';
import { qqApiRoot } from './qq-endpoints.js';
import { qqDefaultMessageChars } from './qq-limits.js';

const qqSchema = z.strictObject({
  appId: optionalText.describe('AppID of the bot (q.qq.com, development settings); without it the channel is off.'),
  appSecret: optionalText.describe('AppSecret of the bot: fetches access tokens and is the seed of the callback signing key.'),
  mode: z
    .enum(['webhook', 'websocket'])
    .default('webhook')
    .describe('webhook: QQ posts events to POST /qq/callback on the HTTP gateway. websocket: the bot connects to the QQ gateway.'),
  apiRoot: z.string().url().default(qqApiRoot).describe('OpenAPI root (the sandbox, or an emulator in tests).'),
  tokenRoot: optionalText.describe("Where /app/getAppAccessToken lives; empty: bots.qq.com for QQ's own API roots, else the API root (an emulator)."),
  allowFrom: commaList.default([]).describe('User openids (private chats) that reach the model; QQ shows bots openids only.'),
  approvers: commaList.default([]).describe('User openids that may decide approvals; empty: the requester decides.'),
  groups: commaList.default([]).describe('Group openids the bot answers in (when @-mentioned); members there are per-group openids.'),
  limits: z
    .strictObject({
      messageChars: z.coerce.number().int().min(100).max(5000).default(qqDefaultMessageChars).describe('Longest single text message.'),
    })
    .prefault({})
    .describe("QQ's limits the channel keeps to."),
  tools: toolSelectionSchema.partial().optional().describe('Tool selection for this channel.'),
});

/** `channels.qq`: the schema, its environment variables, its secrets. The channel's name is written here once. */
export const qqConfig = createChannelConfigSection({
  name: 'qq',
  schema: qqSchema,
  environment: {
    appId: 'QQ_APP_ID',
    appSecret: 'QQ_APP_SECRET',
    mode: 'QQ_MODE',
    apiRoot: 'QQ_API_ROOT',
    allowFrom: 'QQ_ALLOW_FROM',
    approvers: 'QQ_APPROVERS',
    groups: 'QQ_GROUPS',
  },
  secrets: ['appSecret'],
});

/** The `channels.qq` section, validated. */
export type QqConfig = z.output<typeof qqSchema>;
