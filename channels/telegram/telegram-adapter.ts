import type { ChannelAdapter } from '../../src/channel/channel-adapter.js';
import type { WiredChannel } from '../../src/channel/channel-context.js';
import { withChannelStrings } from '../../src/i18n/with-channel-strings.js';
import { telegramConfig } from './telegram-config.js';
import { telegramDownloadLimitBytes, telegramMessageLimit } from './telegram-limits.js';
import { telegramDoctor } from './telegram-doctor.js';
import { telegramStrings } from './telegram-strings.js';
import { describeTelegramSettings, telegramSettingsProblem } from './telegram-settings.js';

/** Telegram: on when a bot token is set; telegraf and the channel are loaded only then. Cards carry buttons. */
export const telegramAdapter: ChannelAdapter = {
  name: telegramConfig.name,
  modes: ['server'],
  configSection: telegramConfig,
  doctor: telegramDoctor,
  setupHint: 'set TELEGRAM_BOT_TOKEN (see README)',
  traits: (config) => ({
    locale: config.agent.locale,
    streams: telegramConfig.read(config).streaming,
    approvals: { style: 'buttons', approvers: telegramConfig.read(config).approvers, reachesApproversByUserId: true },
    tools: telegramConfig.read(config).tools,
    publicRoutes: telegramConfig.read(config).token !== undefined && telegramConfig.read(config).mode === 'webhook',
    limits: { messageChars: telegramMessageLimit, downloadBytes: telegramDownloadLimitBytes, proactiveSend: 'any-time' },
    // Two pollers of one token get 409 from Telegram: one instance polls, any instance sends.
    cluster: { leaderRole: 'poller', handsOffSends: false },
  }),
  async wire(context) {
    const telegram = telegramConfig.read(context.config);
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
      messages: withChannelStrings(context.messagesFor(context.channelName), telegramStrings),
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
