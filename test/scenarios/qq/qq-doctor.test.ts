import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkQq } from '../../../channels/qq/check-qq.js';
import { parseQqSettings, qqEnvironmentVariables, qqSecretPaths, qqSettingsSchema, tokenRootOf } from '../../../channels/qq/qq-settings.js';
import { type QqBotApiEmulator, startQqBotApiEmulator } from '../../fakes/qq/qq-bot-api-emulator.js';

let emulator: QqBotApiEmulator;
beforeEach(async () => {
  emulator = await startQqBotApiEmulator();
});
afterEach(async () => {
  await emulator.stop();
});

function settingsWith(environment: Record<string, string>) {
  const parsed = parseQqSettings(environment);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.settings;
}

describe('QQ settings and doctor lines', () => {
  it('reads each documented variable into its key, with the defaults when unset', () => {
    expect(qqEnvironmentVariables.map((variable) => variable.name)).toEqual(['QQ_APP_ID', 'QQ_APP_SECRET', 'QQ_MODE', 'QQ_API_ROOT', 'QQ_ALLOW_FROM', 'QQ_APPROVERS', 'QQ_GROUPS']);
    const defaults = settingsWith({});
    expect(defaults).toMatchObject({ mode: 'webhook', apiRoot: 'https://api.sgroup.qq.com', allowFrom: [], groups: [], limits: { messageChars: 2000 } });
    expect(tokenRootOf(defaults)).toBe('https://bots.qq.com');
    const set = settingsWith({ QQ_APP_ID: '102000001', QQ_MODE: 'websocket', QQ_ALLOW_FROM: 'A1, B2', QQ_GROUPS: 'G1', QQ_API_ROOT: emulator.apiRoot });
    expect(set).toMatchObject({ appId: '102000001', mode: 'websocket', allowFrom: ['A1', 'B2'], groups: ['G1'] });
    // An emulator serves the token endpoint on its own root.
    expect(tokenRootOf(set)).toBe(emulator.apiRoot);
    expect(parseQqSettings({ QQ_MODE: 'polling' })).toMatchObject({ ok: false, error: expect.stringContaining('channels.qq.mode') });
    expect(qqSecretPaths).toEqual(['appSecret']);
    expect(qqSettingsSchema.safeParse({ appid: 'typo' }).success).toBe(false);
  });

  it('is off without credentials, ok when the token endpoint issues a token, and fails (never naming the secret) when it refuses', async () => {
    expect(await checkQq(settingsWith({}))).toEqual([{ status: 'off', subject: 'qq', text: 'off: QQ_APP_ID and QQ_APP_SECRET are not set' }]);
    expect((await checkQq(settingsWith({ QQ_APP_ID: emulator.appId })))[0]).toMatchObject({ status: 'fail', text: 'QQ_APP_ID is set but QQ_APP_SECRET is not' });

    const good = await checkQq(settingsWith({ QQ_APP_ID: emulator.appId, QQ_APP_SECRET: emulator.secret, QQ_API_ROOT: emulator.apiRoot, QQ_ALLOW_FROM: 'A1' }));
    expect(good[0]).toMatchObject({ status: 'ok', text: expect.stringContaining('issued a token (webhook at /qq/callback, 1 allowed user)') });
    expect(emulator.tokenRequests()).toBe(1);

    const wrongSecret = 'wrong-secret-value-1234';
    const refused = await checkQq(settingsWith({ QQ_APP_ID: emulator.appId, QQ_APP_SECRET: wrongSecret, QQ_API_ROOT: emulator.apiRoot }));
    expect(refused[0]).toMatchObject({ status: 'fail', text: expect.stringContaining('refused them') });
    expect(refused.find((line) => line.status === 'warn')?.text).toContain('nobody reaches the model');
    expect(JSON.stringify(refused)).not.toContain(wrongSecret);

    const unreachable = await checkQq(settingsWith({ QQ_APP_ID: emulator.appId, QQ_APP_SECRET: emulator.secret, QQ_API_ROOT: 'http://127.0.0.1:1' }), { timeoutMs: 2000 });
    expect(unreachable[0]).toMatchObject({ status: 'fail', text: expect.stringContaining('could not be used') });
  });
});
