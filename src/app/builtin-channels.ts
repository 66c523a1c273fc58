import { cliAdapter } from '../../channels/cli/cli-adapter.js';
import { telegramAdapter } from '../../channels/telegram/telegram-adapter.js';
import { webhookAdapter } from '../../channels/webhook/webhook-adapter.js';
import { createWechatAdapter } from '../../channels/wechat/wechat-adapter.js';
import type { ChannelAdapter } from '../channel/channel-adapter.js';

/** The channels `npm start` and `npm run chat` know: one line each. Schedules (cron) are wired beside them, always. */
export const builtinChannels: readonly ChannelAdapter[] = [telegramAdapter, createWechatAdapter(), webhookAdapter, cliAdapter];
