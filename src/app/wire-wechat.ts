import { createWechatChannel, type WechatChannelOptions } from '../../channels/wechat/index.js';
import type { ChannelContext, WiredChannel } from './channel-context.js';

/** Test-only seams (a mock puppet, no pacing); the composition root never passes them and config cannot set them. */
export type WechatWiringOverrides = Pick<WechatChannelOptions, 'puppet' | 'sendIntervalMs' | 'sendJitterMs' | 'reconnectDelayMs' | 'printQrCode'>;

/** Turns the WeChat channel on when `WECHAT_ENABLED` is true; wechaty itself loads only when the channel starts. */
export async function wireWechat(context: ChannelContext, overrides: WechatWiringOverrides = {}): Promise<WiredChannel> {
  const { config, logger } = context;
  const settings = config.channels.wechat;
  if (!settings.enabled) return { on: false, name: 'wechat', reason: 'WECHAT_ENABLED is not true' };
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
  const channel = createWechatChannel({
    settings,
    dataDir: config.storage.dataDir,
    messages: context.messagesFor('wechat'),
    logger: logger.child({ component: 'wechat' }),
    seenMessages: context.store.namespace<number>('wechat-messages'),
    timezone: config.agent.timezone,
    ...overrides,
  });
  const puppet = overrides.puppet === undefined ? settings.puppet : 'injected puppet';
  return { on: true, channel, detail: `${puppet}, ${settings.allowFrom.length} contacts, ${settings.rooms.length} rooms, ${settings.locale}` };
}
