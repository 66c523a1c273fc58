import type { ChannelDoctor } from '../../src/doctor/channel-doctor.js';
import { type DoctorLine, doctorLine } from '../../src/doctor/doctor-line.js';
import type { TelegramTokenCheck } from './check-telegram-token.js';
import { type TelegramConfig as TelegramSettings, telegramConfig } from './telegram-config.js';
import { hostOf } from '../../src/logging/host-of.js';
import { describeTelegramSettings, telegramSettingsProblem as settingsProblem } from './telegram-settings.js';

/** Telegram's doctor lines: on with a token; then `getMe`, who can reach the bot and who approves. */
export const telegramDoctor: ChannelDoctor = {
  isConfigured: (config) => telegramConfig.read(config).token !== undefined,
  check: ({ config, timeoutMs }) => checkTelegram(telegramConfig.read(config), timeoutMs),
};


/** The Telegram lines: off without a token, else what `getMe` says, plus who can reach the bot and who approves. */
export async function checkTelegram(settings: TelegramSettings, timeoutMs: number): Promise<DoctorLine[]> {
  const problem = telegramSettingsProblem(settings);
  if (problem !== undefined) return [problem];
  const token = settings.token ?? '';
  // telegraf loads only when there is a token to check, as at start-up.
  const { checkTelegramToken } = await import('./check-telegram-token.js');
  const check = await checkTelegramToken({ token, apiRoot: settings.apiRoot, timeoutMs });
  return [describeTelegramToken(check, settings), ...telegramWarnings(settings)];
}

/** Why the channel stays off or cannot start, before any request: no token, a malformed one, webhook mode half set. Pure. */
export function telegramSettingsProblem(settings: TelegramSettings): DoctorLine | undefined {
  const problem = settingsProblem(settings);
  if (!problem) return undefined;
  return problem.unset ? doctorLine('off', 'telegram', `off: ${problem.reason}`) : doctorLine('fail', 'telegram', problem.reason);
}

/** What `getMe` said, in words: the bot's name, a refused token, or an unreachable server (its host only, never the URL). Pure. */
export function describeTelegramToken(check: TelegramTokenCheck, settings: TelegramSettings): DoctorLine {
  const host = hostOf(settings.apiRoot);
  if (check.ok) {
    return doctorLine('ok', 'telegram', `@${check.username} (${describeTelegramSettings(settings)})`);
  }
  switch (check.reason) {
    case 'refused':
      return doctorLine('fail', 'telegram', `the token was refused by ${host} (${check.status} ${check.description}): get a new one from @BotFather`);
    case 'rate-limited':
      return doctorLine('warn', 'telegram', `${host} is rate-limiting this bot; try again in ${check.retryAfterSeconds} s`);
    case 'server-error':
      return doctorLine('fail', 'telegram', `${host} answered with a server error; try again later`);
    case 'unreachable':
      return doctorLine('fail', 'telegram', `cannot reach ${host}`);
  }
}

/** Who can reach the bot and who decides approvals, when either is worth a second look. Pure. */
export function telegramWarnings(settings: TelegramSettings): DoctorLine[] {
  const lines: DoctorLine[] = [];
  if (settings.allowFrom.length === 0) {
    lines.push(doctorLine('warn', 'telegram', 'TELEGRAM_ALLOW_FROM is empty: nobody can reach the model; strangers are told their id'));
  }
  if (settings.approvers.length === 0) {
    lines.push(doctorLine('warn', 'telegram', 'TELEGRAM_APPROVERS is empty: each requester approves their own actions'));
  }
  return lines;
}

