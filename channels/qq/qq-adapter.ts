import type { ChannelAdapter } from '../../src/app/channel-adapter.js';
import type { Config } from '../../src/config/config-schema.js';
import type { DedupeRow } from '../../src/dedupe/create-dedupe.js';
import type { QqChannelOptions } from './qq-channel.js';
import { chineseQqMessages, englishQqMessages } from './qq-messages.js';
import { describeQqSettings, type QqSettings, qqSettingsProblem, qqSettingsSchema } from './qq-settings.js';

// Why the HTTP API is called directly (issue 26): the official Node SDK (`qq-guild-bot`, tencent-connect/bot-node-sdk)
// is a guild (频道) bot SDK whose releases have no group or C2C messages and no webhook mode (its issue #89 is answered
// "use another SDK"; PRs #83 and #93 that add them are open), and community forks exist because it is not maintained.
// `qq-official-bot` (zhinjs) covers groups and C2C but is one community project whose signing and op-13 handling we
// would have to audit and pin. The surface used here is small (a token, two message endpoints, /gateway, Ed25519
// callbacks), so a few files with their own emulator tests are less to trust than either SDK.

/** Seams a test may set (fetch, a websocket factory, reconnect waits, a clock); config cannot set them. */
export type QqAdapterOverrides = Pick<QqChannelOptions, 'fetch' | 'connect' | 'reconnectDelayMs' | 'now'>;

/** What the adapter is built from: the settings (else `channels.qq` of the config, read with the fragment). */
export type QqAdapterOptions = { readonly settings?: QqSettings; readonly overrides?: QqAdapterOverrides };

/** QQ: on when QQ_APP_ID and QQ_APP_SECRET are set; cards are answered with numbers (replies are passive). */
export function createQqAdapter(options: QqAdapterOptions = {}): ChannelAdapter {
  const settingsOf = (config: Config): QqSettings => options.settings ?? qqSettingsSchema.parse((config as { channels?: { qq?: unknown } }).channels?.qq ?? {});
  return {
    name: 'qq',
    modes: ['server'],
    traits: (config) => {
      const settings = settingsOf(config);
      return {
        locale: config.agent.locale,
        streams: false,
        // Chat ids are c2c:/group: and QQ refuses sends of the bot's own: an approver is reached only in a chat they write in.
        approvals: { style: 'numbered', approvers: settings.approvers, reachesApproversByUserId: false },
        ...(settings.tools === undefined ? {} : { tools: settings.tools }),
      };
    },
    async wire(context) {
      const settings = settingsOf(context.config);
      const problem = qqSettingsProblem(settings);
      if (problem) return { on: false, name: context.channelName, reason: problem.reason };
      if (settings.allowFrom.length === 0 && settings.groups.length === 0) context.logger.warn('QQ is on, but QQ_ALLOW_FROM and QQ_GROUPS are empty: nobody reaches the model (strangers are told their openid)');
      const { createQqChannel } = await import('./qq-channel.js');
      const channel = createQqChannel({
        name: context.channelName,
        settings,
        messages: context.messagesFor(context.channelName),
        qqMessages: context.config.agent.locale === 'zh-CN' ? chineseQqMessages : englishQqMessages,
        logger: context.logger.child({ channel: context.channelName }),
        seenMessages: context.store.namespace<DedupeRow>('qq-messages'),
        dedupeTtlMs: context.config.storage.dedupeHours * 60 * 60 * 1000,
        timezone: context.config.agent.timezone,
        ...options.overrides,
      });
      return { on: true, channel, detail: describeQqSettings(settings), ...(channel.callbackRoute ? { routes: [channel.callbackRoute] } : {}) };
    },
  };
}
