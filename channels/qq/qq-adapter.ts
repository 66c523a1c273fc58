import type { ChannelAdapter } from '../../src/channel/channel-adapter.js';
import type { WiredChannel } from '../../src/channel/channel-context.js';
import type { DedupeRow } from '../../src/dedupe/create-dedupe.js';
import { withChannelStrings } from '../../src/i18n/with-channel-strings.js';
import type { ReplyCount } from './create-shared-reply-sequence.js';
import type { QqChannelOptions } from './qq-channel.js';
import { qqConfig } from './qq-config.js';
import { qqDoctor } from './qq-doctor.js';
import { describeQqSettings, qqSettingsProblem } from './qq-settings.js';
import { qqStrings } from './qq-strings.js';

// Why the HTTP API is called directly (issue 26): the official Node SDK (`qq-guild-bot`, tencent-connect/bot-node-sdk)
// is a guild (频道) bot SDK whose releases have no group or C2C messages and no webhook mode (its issue #89 is answered
// "use another SDK"; PRs #83 and #93 that add them are open), and community forks exist because it is not maintained.
// `qq-official-bot` (zhinjs) covers groups and C2C but is one community project whose signing and op-13 handling we
// would have to audit and pin. The surface used here is small (a token, two message endpoints, /gateway, Ed25519
// callbacks), so a few files with their own emulator tests are less to trust than either SDK.

/** Seams a test may set (fetch, a websocket factory, reconnect waits, a clock); config cannot set them. */
export type QqAdapterOverrides = Pick<QqChannelOptions, 'fetch' | 'connect' | 'reconnectDelayMs' | 'now'>;

/** QQ: on when QQ_APP_ID and QQ_APP_SECRET are set; the channel loads only then. Cards are answered with numbers (replies are passive). */
export function createQqAdapter(overrides: QqAdapterOverrides = {}): ChannelAdapter {
  return {
    name: qqConfig.name,
    modes: ['server'],
    configSection: qqConfig,
    doctor: qqDoctor,
    setupHint: 'set QQ_APP_ID and QQ_APP_SECRET (see README)',
    traits: (config) => {
      const settings = qqConfig.read(config);
      const websocket = settings.mode === 'websocket';
      return {
        locale: config.agent.locale,
        streams: false,
        // Chat ids are c2c:/group: and QQ refuses sends of the bot's own: an approver is reached only in a chat they write in.
        approvals: { style: 'numbered', approvers: settings.approvers, reachesApproversByUserId: false },
        tools: settings.tools,
        // Webhook mode: QQ posts to /qq/callback on the gateway from outside.
        publicRoutes: qqDoctor.isConfigured(config) && !websocket,
        // Every message the bot sends is a reply to a person's message, within QQ's window after it (60 min private, 5 min group).
        limits: { messageChars: settings.limits.messageChars, proactiveSend: 'reply-window' },
        // Two gateway connections of one bot would each get its events: one instance connects, any instance sends.
        ...(websocket ? { cluster: { leaderRole: 'gateway connection', handsOffSends: false } } : {}),
      };
    },
    async wire(context) {
      const settings = qqConfig.read(context.config);
      const off = (reason: string): WiredChannel => ({ on: false, name: context.channelName, reason });
      const problem = qqSettingsProblem(settings);
      if (problem) return off(problem.reason);
      if (settings.allowFrom.length === 0 && settings.groups.length === 0) {
        context.logger.warn('QQ is on, but QQ_ALLOW_FROM and QQ_GROUPS are empty: nobody reaches the model (strangers are told their openid)');
      }
      const { createQqChannel } = await import('./qq-channel.js');
      const channel = createQqChannel({
        name: context.channelName,
        settings,
        messages: withChannelStrings(context.messagesFor(context.channelName), qqStrings),
        logger: context.logger.child({ channel: context.channelName }),
        seenMessages: context.store.namespace<DedupeRow>('qq-messages'),
        dedupeTtlMs: context.config.storage.dedupeHours * 60 * 60 * 1000,
        timezone: context.config.agent.timezone,
        ...(context.instance.mode === 'cluster' ? { leadership: context.instance.leadership, replyCounts: context.store.namespace<ReplyCount>('qq-reply-counts') } : {}),
        ...overrides,
      });
      if (channel.callbackRoute) context.gateway.mount(channel.callbackRoute);
      return { on: true, channel, detail: describeQqSettings(settings) };
    },
  };
}

/** The built-in QQ adapter. */
export const qqAdapter: ChannelAdapter = createQqAdapter();
