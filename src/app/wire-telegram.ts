import type { ChannelContext, WiredChannel } from './channel-context.js';
import { describeTelegramSettings, telegramSettingsProblem } from './telegram-settings.js';

/** Turns the Telegram channel on when a bot token is set; telegraf is loaded only then. */
export async function wireTelegram(context: ChannelContext): Promise<WiredChannel> {
  const telegram = context.config.channels.telegram;
  const off = (reason: string): WiredChannel => ({ on: false, name: 'telegram', reason });
  const problem = telegramSettingsProblem(telegram);
  if (problem) return off(problem.reason);
  const token = telegram.token ?? '';
  const { createTelegramChannel } = await import('../../channels/telegram/index.js');
  const channel = createTelegramChannel({
    token,
    apiRoot: telegram.apiRoot,
    mode: telegram.mode,
    webhookUrl: telegram.webhookUrl,
    webhookSecret: telegram.webhookSecret,
    allowFrom: telegram.allowFrom,
    approvers: telegram.approvers,
    groups: telegram.groups,
    sessionPerUser: telegram.sessionPerUser,
    streaming: telegram.streaming,
    limits: telegram.limits,
    messages: context.messagesFor('telegram'),
    logger: context.logger,
    store: context.store,
    timezone: context.config.agent.timezone,
    dedupeTtlMs: context.config.storage.dedupeHours * 60 * 60 * 1000,
  });
  if (channel.webhookRoute) context.httpRoutes.push(channel.webhookRoute);
  return { on: true, channel, detail: describeTelegramSettings(telegram) };
}

