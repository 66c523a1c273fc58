import type { ChannelAdapter } from '../../src/channel/channel-adapter.js';
import type { WiredChannel } from '../../src/channel/channel-context.js';
import { describeTelegramSettings, telegramSettingsProblem } from './telegram-settings.js';

/** Telegram: on when a bot token is set; telegraf and the channel are loaded only then. Cards carry buttons. */
export const telegramAdapter: ChannelAdapter = {
  name: 'telegram',
  modes: ['server'],
  traits: (config) => ({
    locale: config.agent.locale,
    streams: config.channels.telegram.streaming,
    approvals: { style: 'buttons', approvers: config.channels.telegram.approvers, reachesApproversByUserId: true },
    tools: config.channels.telegram.tools,
  }),
  async wire(context) {
    const telegram = context.config.channels.telegram;
    const off = (reason: string): WiredChannel => ({ on: false, name: context.channelName, reason });
    const problem = telegramSettingsProblem(telegram);
    if (problem) return off(problem.reason);
    const { createTelegramChannel } = await import('./telegram-channel.js');
    const channel = createTelegramChannel({
      name: context.channelName,
      token: telegram.token ?? '',
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
      albumWindowMs: telegram.albumWindowMs,
      messages: context.messagesFor(context.channelName),
      logger: context.logger,
      store: context.store,
      leadership: context.instance.mode === 'cluster' ? context.instance.leadership : undefined,
      timezone: context.config.agent.timezone,
      dedupeTtlMs: context.config.storage.dedupeHours * 60 * 60 * 1000,
    });
    if (channel.webhookRoute) context.gateway.mount(channel.webhookRoute);
    return { on: true, channel, detail: describeTelegramSettings(telegram) };
  },
};
