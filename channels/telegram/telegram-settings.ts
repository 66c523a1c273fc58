import { hostOf } from '../../src/logging/host-of.js';
import type { TelegramConfig as TelegramSettings } from './telegram-config.js';

/** The shape of a bot token from @BotFather (`123456789:AA...`). */
const tokenPattern = /^\d+:[A-Za-z0-9_-]{20,}$/;

/**
 * Why the Telegram channel cannot start, before any request: `unset` when there is simply no token
 * (the channel is off), otherwise a setting that is wrong. Start-up and the doctor both read it. Pure.
 */
export function telegramSettingsProblem(settings: TelegramSettings): { readonly unset: boolean; readonly reason: string } | undefined {
  if (!settings.token) return { unset: true, reason: 'TELEGRAM_BOT_TOKEN is not set' };
  if (!tokenPattern.test(settings.token)) return { unset: false, reason: 'TELEGRAM_BOT_TOKEN does not look like a bot token (123456789:AA..., from @BotFather)' };
  if (settings.mode === 'webhook') {
    if (!settings.webhookUrl) return { unset: false, reason: 'webhook mode needs TELEGRAM_WEBHOOK_URL (the public https URL Telegram posts to)' };
    // Without a secret anyone who finds the URL could post updates in an allowed user's name.
    if (!settings.webhookSecret) return { unset: false, reason: 'webhook mode needs TELEGRAM_WEBHOOK_SECRET' };
  }
  return undefined;
}

/** How updates arrive and who may talk: `polling via api.telegram.org, 1 allowed user`. Pure. */
export function describeTelegramSettings(settings: TelegramSettings): string {
  const via = settings.mode === 'webhook' ? `webhook at ${hostOf(settings.webhookUrl ?? '')}` : `polling via ${hostOf(settings.apiRoot)}`;
  const users =
    settings.allowFrom.length === 0
      ? 'no allowed users yet (strangers are told their id)'
      : `${settings.allowFrom.length} allowed user${settings.allowFrom.length === 1 ? '' : 's'}`;
  const groups = settings.groups.length === 0 ? '' : `, ${settings.groups.length} group${settings.groups.length === 1 ? '' : 's'}`;
  return `${via}, ${users}${groups}`;
}
