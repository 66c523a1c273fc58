import { a2aServerAdapter } from '../../channels/a2a-server/a2a-server-adapter.js';
import { cliAdapter } from '../../channels/cli/cli-adapter.js';
import { qqAdapter } from '../../channels/qq/qq-adapter.js';
import { openaiApiAdapter } from '../../channels/openai-api/openai-api-adapter.js';
import { telegramAdapter } from '../../channels/telegram/telegram-adapter.js';
import { webhookAdapter } from '../../channels/webhook/webhook-adapter.js';
import { createWechatAdapter } from '../../channels/wechat/wechat-adapter.js';
import type { ChannelConfigSection } from '../config/channel-config-section.js';
import type { ChannelAdapter } from '../channel/channel-adapter.js';

/** The channels `npm start` and `npm run chat` know: one line each. Schedules (cron) are wired beside them, always. */
export const builtinChannels: readonly ChannelAdapter[] = [telegramAdapter, createWechatAdapter(), qqAdapter, webhookAdapter, openaiApiAdapter, a2aServerAdapter, cliAdapter];

/** The config sections of channel adapters, for the config loader (the built-in ones unless told otherwise). */
export function channelConfigSections(adapters: readonly ChannelAdapter[] = builtinChannels): ChannelConfigSection[] {
  return adapters.flatMap((adapter) => (adapter.configSection === undefined ? [] : [adapter.configSection]));
}
