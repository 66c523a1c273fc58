import type { ChannelAdapter } from '../../src/channel/channel-adapter.js';
import type { DedupeRow } from '../../src/dedupe/create-dedupe.js';
import type { WechatChannelOptions } from './wechat-channel.js';
import { withChannelStrings } from '../../src/i18n/with-channel-strings.js';
import { wechatConfig } from './wechat-config.js';
import { wechatDoctor } from './wechat-doctor.js';
import { wechatStrings } from './wechat-strings.js';

/** Seams a test may set (a mock puppet, no pacing); config cannot set them. */
export type WechatAdapterOverrides = Pick<WechatChannelOptions, 'puppet' | 'sendIntervalMs' | 'sendJitterMs' | 'reconnectDelayMs' | 'printQrCode'>;

/** WeChat: on when `WECHAT_ENABLED` is true; the channel loads only then, and wechaty itself only when it starts. Cards are answered with numbers. */
export function createWechatAdapter(overrides: WechatAdapterOverrides = {}): ChannelAdapter {
  return {
    name: wechatConfig.name,
    modes: ['server'],
    configSection: wechatConfig,
    doctor: wechatDoctor,
    setupHint: 'set WECHAT_ENABLED=true and scan the QR code',
    traits: (config) => ({
      locale: wechatConfig.read(config).locale,
      streams: false,
      approvals: { style: 'numbered', approvers: wechatConfig.read(config).approvers, reachesApproversByUserId: true },
      tools: wechatConfig.read(config).tools,
      limits: { messageChars: wechatConfig.read(config).splitAt, proactiveSend: 'any-time' },
      // One login per account: the instance holding it sends for every other.
      cluster: { leaderRole: 'login', handsOffSends: true },
    }),
    async wire(context) {
      const { config, logger } = context;
      const settings = wechatConfig.read(config);
      if (!settings.enabled) return { on: false, name: context.channelName, reason: 'WECHAT_ENABLED is not true' };
      if (settings.allowFrom.length === 0 && settings.rooms.length === 0) {
        logger.warn('WeChat is on, but WECHAT_ALLOW_FROM and channels.wechat.rooms are empty: nobody reaches the model');
      }
      const approversOutside = settings.approvers.filter((id) => !settings.allowFrom.includes(id));
      if (approversOutside.length > 0 && settings.roomPolicy !== 'open') {
        logger.warn({ approvers: approversOutside }, 'WeChat approvers not in WECHAT_ALLOW_FROM never reach the bot, so they cannot decide cards');
      }
      if (settings.roomPolicy === 'open' && settings.rooms.length > 0) {
        logger.warn(
          settings.approvers.length === 0
            ? 'WECHAT_ROOM_POLICY=open: any member of a listed room reaches the model, and with no WECHAT_APPROVERS each requester approves their own calls'
            : 'WECHAT_ROOM_POLICY=open: any member of a listed room reaches the model',
        );
      }
      const { createWechatChannel } = await import('./wechat-channel.js');
      const channel = createWechatChannel({
        name: context.channelName,
        settings,
        dataDir: config.storage.dataDir,
        messages: withChannelStrings(context.messagesFor(context.channelName), wechatStrings),
        logger: logger.child({ component: 'wechat' }),
        seenMessages: context.store.namespace<DedupeRow>('wechat-messages'),
        timezone: config.agent.timezone,
        cluster: context.instance.mode === 'cluster' ? { leadership: context.instance.leadership, handOff: context.instance.handOff } : undefined,
        ...overrides,
      });
      const puppet = overrides.puppet === undefined ? settings.puppet : 'injected puppet';
      return { on: true, channel, detail: `${puppet}, ${settings.allowFrom.length} contacts, ${settings.rooms.length} rooms, ${settings.locale}` };
    },
  };
}
