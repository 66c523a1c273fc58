import type { ChannelContext, WiredChannel } from './channel-context.js';

const tokenPattern = /^\d+:[A-Za-z0-9_-]{20,}$/;

/** Turns the Telegram channel on when a bot token is set; telegraf is loaded only then. */
export async function wireTelegram(context: ChannelContext): Promise<WiredChannel> {
  const telegram = context.config.channels.telegram;
  const off = (reason: string): WiredChannel => ({ on: false, name: 'telegram', reason });
  if (!telegram.token) return off('TELEGRAM_BOT_TOKEN is not set');
  if (!tokenPattern.test(telegram.token)) return off('TELEGRAM_BOT_TOKEN does not look like a bot token (123456789:AA..., from @BotFather)');
  if (telegram.mode === 'webhook') {
    if (!telegram.webhookUrl) return off('webhook mode needs channels.telegram.webhookUrl (the public https URL)');
    // Without a secret anyone who finds the URL could post updates in an allowed user's name.
    if (!telegram.webhookSecret) return off('webhook mode needs channels.telegram.webhookSecret');
  }
  const { createTelegramChannel } = await import('../../channels/telegram/index.js');
  const channel = createTelegramChannel({
    token: telegram.token,
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
  });
  if (channel.webhookRoute) context.httpRoutes.push(channel.webhookRoute);
  return { on: true, channel, detail: describe(telegram) };
}

function describe(telegram: ChannelContext['config']['channels']['telegram']): string {
  const via = telegram.mode === 'webhook' ? `webhook at ${hostOf(telegram.webhookUrl ?? '')}` : `polling via ${hostOf(telegram.apiRoot)}`;
  const users = telegram.allowFrom.length === 0 ? 'no allowed users yet (strangers are told their id)' : `${telegram.allowFrom.length} allowed user${telegram.allowFrom.length === 1 ? '' : 's'}`;
  const groups = telegram.groups.length === 0 ? '' : `, ${telegram.groups.length} group${telegram.groups.length === 1 ? '' : 's'}`;
  return `${via}, ${users}${groups}`;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
