import { z } from 'zod';
import { createChannelConfigSection } from '../../src/config/channel-config-section.js';
import { commaList, flexibleBoolean, optionalText } from '../../src/config/comma-list.js';
import { toolSelectionSchema } from '../../src/config/config-schema.js';

const wechatSchema = z.strictObject({
  enabled: flexibleBoolean.default(false).describe('Turn the WeChat channel on.'),
  puppet: z.string().default('wechaty-puppet-wechat4u').describe('wechaty puppet package.'),
  puppetToken: optionalText.describe('Token for paid puppets (padlocal, service).'),
  allowFrom: commaList.default([]).describe('Contact ids or aliases that reach the model.'),
  approvers: commaList.default([]).describe('Contact ids that may decide approvals.'),
  rooms: commaList.default([]).describe('Room ids the bot answers in (when mentioned).'),
  roomPolicy: z
    .enum(['allow-list', 'open'])
    .default('allow-list')
    .describe('allow-list: in rooms too, only members in allowFrom reach the model. open: any member of a listed room (with approvers set).'),
  locale: z.enum(['zh-CN', 'en']).default('zh-CN').describe('Language of WeChat messages.'),
  splitAt: z.coerce.number().int().min(200).default(2000).describe('Longest single message.'),
  tools: toolSelectionSchema.partial().optional().describe('Tool selection for this channel.'),
});

/** `channels.wechat`: the schema, its environment variables, its secrets. The channel's name is written here once. */
export const wechatConfig = createChannelConfigSection({
  name: 'wechat',
  schema: wechatSchema,
  environment: {
    enabled: 'WECHAT_ENABLED',
    puppet: 'WECHAT_PUPPET',
    puppetToken: 'WECHAT_PUPPET_TOKEN',
    allowFrom: 'WECHAT_ALLOW_FROM',
    approvers: 'WECHAT_APPROVERS',
    rooms: 'WECHAT_ROOMS',
    roomPolicy: 'WECHAT_ROOM_POLICY',
    locale: 'WECHAT_LOCALE',
  },
  secrets: ['puppetToken'],
});

/** The `channels.wechat` section, validated. */
export type WechatConfig = z.output<typeof wechatSchema>;
