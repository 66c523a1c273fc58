import { resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { qqAdapter } from '../../../channels/qq/qq-adapter.js';
import { type QqConfig, qqConfig } from '../../../channels/qq/qq-config.js';
import { checkQq, qqDoctor } from '../../../channels/qq/qq-doctor.js';
import { tokenRootOf } from '../../../channels/qq/qq-settings.js';
import { builtinChannels } from '../../../src/app/builtin-channels.js';
import { channelSecrets } from '../../../src/config/channel-config-section.js';
import type { Config } from '../../../src/config/config-schema.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { doctorLinesOf } from '../../contracts/doctor-lines-of.js';
import { type QqBotApiEmulator, startQqBotApiEmulator } from '../../fakes/qq/qq-bot-api-emulator.js';

let emulator: QqBotApiEmulator;
beforeEach(async () => {
  emulator = await startQqBotApiEmulator();
});
afterEach(async () => {
  await emulator.stop();
});

const repositoryRoot = resolve(import.meta.dirname, '..', '..', '..');

/** The configuration `npm start` would load with these variables (default.yaml, then the channels' sections). */
function loadWith(environment: Record<string, string>): ReturnType<typeof loadConfig> {
  return loadConfig({ channels: [qqConfig], root: repositoryRoot, environment: { OPENAI_API_KEY: 'test-key', ...environment } });
}

function configWith(environment: Record<string, string>): Config {
  const loaded = loadWith(environment);
  if (!loaded.ok) throw new Error(loaded.errors.join('; '));
  return loaded.config;
}

function settingsWith(environment: Record<string, string>): QqConfig {
  return qqConfig.read(configWith(environment));
}

const check = (settings: QqConfig, timeoutMs = 3000) => checkQq(settings, { subject: 'qq', timeoutMs });

describe('QQ settings and doctor lines', () => {
  it('reads each documented variable into its key, with the defaults when unset', () => {
    expect(Object.values(qqConfig.environment)).toEqual(['QQ_APP_ID', 'QQ_APP_SECRET', 'QQ_MODE', 'QQ_API_ROOT', 'QQ_ALLOW_FROM', 'QQ_APPROVERS', 'QQ_GROUPS']);
    const defaults = settingsWith({});
    expect(defaults).toMatchObject({ mode: 'webhook', apiRoot: 'https://api.sgroup.qq.com', allowFrom: [], groups: [], limits: { messageChars: 2000 } });
    expect(tokenRootOf(defaults)).toBe('https://bots.qq.com');
    const set = settingsWith({ QQ_APP_ID: '102000001', QQ_MODE: 'websocket', QQ_ALLOW_FROM: 'A1, B2', QQ_GROUPS: 'G1', QQ_API_ROOT: emulator.apiRoot });
    expect(set).toMatchObject({ appId: '102000001', mode: 'websocket', allowFrom: ['A1', 'B2'], groups: ['G1'] });
    // An emulator serves the token endpoint on its own root.
    expect(tokenRootOf(set)).toBe(emulator.apiRoot);
    expect(loadWith({ QQ_MODE: 'polling' })).toMatchObject({ ok: false, errors: [expect.stringContaining('channels.qq.mode')] });
    expect(qqConfig.secrets).toEqual(['appSecret']);
    expect(channelSecrets(configWith({ QQ_APP_ID: '102000001', QQ_APP_SECRET: 'the-app-secret' }), [qqConfig])).toEqual(['the-app-secret']);
    expect(qqConfig.schema.safeParse({ appid: 'typo' }).success).toBe(false);
  });

  it('is off without credentials, ok when the token endpoint issues a token, and fails (never naming the secret) when it refuses', async () => {
    expect(await check(settingsWith({}))).toEqual([{ status: 'off', subject: 'qq', text: 'off: QQ_APP_ID and QQ_APP_SECRET are not set' }]);
    expect((await check(settingsWith({ QQ_APP_ID: emulator.appId })))[0]).toMatchObject({ status: 'fail', text: 'QQ_APP_ID is set but QQ_APP_SECRET is not' });

    const good = await check(settingsWith({ QQ_APP_ID: emulator.appId, QQ_APP_SECRET: emulator.secret, QQ_API_ROOT: emulator.apiRoot, QQ_ALLOW_FROM: 'A1' }));
    expect(good[0]).toMatchObject({ status: 'ok', text: expect.stringContaining('issued a token (webhook at /qq/callback, 1 allowed user)') });
    expect(emulator.tokenRequests()).toBe(1);

    const wrongSecret = 'wrong-secret-value-1234';
    const refused = await check(settingsWith({ QQ_APP_ID: emulator.appId, QQ_APP_SECRET: wrongSecret, QQ_API_ROOT: emulator.apiRoot }));
    expect(refused[0]).toMatchObject({ status: 'fail', text: expect.stringContaining('refused them') });
    expect(refused.find((line) => line.status === 'warn')?.text).toContain('nobody reaches the model');
    expect(JSON.stringify(refused)).not.toContain(wrongSecret);

    const unreachable = await check(settingsWith({ QQ_APP_ID: emulator.appId, QQ_APP_SECRET: emulator.secret, QQ_API_ROOT: 'http://127.0.0.1:1' }), 2000);
    expect(unreachable[0]).toMatchObject({ status: 'fail', text: expect.stringContaining('could not be used') });
  });

  it('`npm run doctor` has a QQ section through the built-in adapter, which the config turns on with both credentials', async () => {
    expect(builtinChannels).toContain(qqAdapter);
    const off = configWith({});
    expect(qqDoctor.isConfigured(off)).toBe(false);
    expect((await doctorLinesOf(off)).filter((line) => line.subject === 'qq')).toEqual([{ status: 'off', subject: 'qq', text: 'off: QQ_APP_ID and QQ_APP_SECRET are not set' }]);
    const on = configWith({ QQ_APP_ID: emulator.appId, QQ_APP_SECRET: emulator.secret, QQ_API_ROOT: emulator.apiRoot, QQ_ALLOW_FROM: 'A1' });
    expect(qqDoctor.isConfigured(on)).toBe(true);
    const lines = (await doctorLinesOf(on)).filter((line) => line.subject === 'qq');
    expect(lines.map((line) => line.status)).toEqual(['ok', 'ok']);
    expect(lines[1]?.text).toContain('https://<your host>/qq/callback');
  });

  it('declares its traits: numbered cards, replies only within the window, a public route in webhook mode, a leader role in websocket mode', () => {
    const webhook = qqAdapter.traits(configWith({ QQ_APP_ID: emulator.appId, QQ_APP_SECRET: emulator.secret }));
    expect(webhook).toMatchObject({ streams: false, approvals: { style: 'numbered', reachesApproversByUserId: false }, publicRoutes: true, limits: { messageChars: 2000, proactiveSend: 'reply-window' } });
    expect(webhook.cluster).toBeUndefined();
    const websocket = qqAdapter.traits(configWith({ QQ_APP_ID: emulator.appId, QQ_APP_SECRET: emulator.secret, QQ_MODE: 'websocket' }));
    expect(websocket).toMatchObject({ publicRoutes: false, cluster: { leaderRole: 'gateway connection', handsOffSends: false } });
    // Off, it serves nothing from outside.
    expect(qqAdapter.traits(configWith({})).publicRoutes).toBe(false);
    expect(qqAdapter.setupHint).toContain('QQ_APP_ID');
  });
});
