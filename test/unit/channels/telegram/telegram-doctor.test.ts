import { telegramConfig } from '../../../../channels/telegram/telegram-config.js';
import { describe, expect, it } from 'vitest';
import { describeTelegramToken, telegramSettingsProblem, telegramWarnings } from '../../../../channels/telegram/telegram-doctor.js';
import { configWith } from '../../../fakes/config-with.js';

const token = '123456789:AAHsecretsecretsecretsecret';
const settings = (telegram: Record<string, unknown> = {}) => telegramConfig.read(configWith({ channels: { telegram: { token, ...telegram } } }));

describe('telegramSettingsProblem', () => {
  it('is off without a token, and says which variable', () => {
    expect(telegramSettingsProblem(telegramConfig.read(configWith()))).toEqual({ status: 'off', subject: 'telegram', text: 'off: TELEGRAM_BOT_TOKEN is not set' });
  });

  it('fails a token that is not shaped like one, without printing it', () => {
    const line = telegramSettingsProblem(settings({ token: 'not-a-token-value' }));
    expect(line?.status).toBe('fail');
    expect(line?.text).not.toContain('not-a-token-value');
  });

  it('fails webhook mode without its URL or secret, and passes a complete setting', () => {
    expect(telegramSettingsProblem(settings({ mode: 'webhook' }))?.text).toContain('TELEGRAM_WEBHOOK_URL');
    expect(telegramSettingsProblem(settings({ mode: 'webhook', webhookUrl: 'https://bot.example.com/telegram' }))?.text).toContain('TELEGRAM_WEBHOOK_SECRET');
    expect(telegramSettingsProblem(settings())).toBeUndefined();
  });
});

describe('describeTelegramToken', () => {
  it('names the bot and how updates arrive', () => {
    const line = describeTelegramToken({ ok: true, username: 'echo_bot' }, settings({ allowFrom: '42' }));
    expect(line).toEqual({ status: 'ok', subject: 'telegram', text: '@echo_bot (polling via api.telegram.org, 1 allowed user)' });
  });

  it('says the token was refused, or which host cannot be reached, and never the token', () => {
    const refused = describeTelegramToken({ ok: false, reason: 'refused', status: 401, description: 'Unauthorized' }, settings());
    expect(refused.status).toBe('fail');
    expect(refused.text).toContain('the token was refused by api.telegram.org (401 Unauthorized)');
    const unreachable = describeTelegramToken({ ok: false, reason: 'unreachable' }, settings({ apiRoot: 'http://127.0.0.1:9' }));
    expect(unreachable).toEqual({ status: 'fail', subject: 'telegram', text: 'cannot reach 127.0.0.1:9' });
    expect(`${refused.text}${unreachable.text}`).not.toContain(token);
  });
});

describe('telegramWarnings', () => {
  it('warns about an empty allow list and empty approvers', () => {
    const texts = telegramWarnings(settings()).map((line) => `${line.status} ${line.text}`);
    expect(texts).toEqual([
      'warn TELEGRAM_ALLOW_FROM is empty: nobody can reach the model; strangers are told their id',
      'warn TELEGRAM_APPROVERS is empty: each requester approves their own actions',
    ]);
  });

  it('has nothing to say when both are set', () => {
    expect(telegramWarnings(settings({ allowFrom: '42', approvers: '42' }))).toEqual([]);
  });
});
