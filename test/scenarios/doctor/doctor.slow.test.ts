import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runCompiled } from '../../fakes/run-compiled.js';
import { createScriptedModelServer, type ScriptedModelServer } from '../../fakes/scripted-model-server.js';
import { startQqBotApiEmulator } from '../../fakes/qq/qq-bot-api-emulator.js';
import { findFreePort, startTelegramEmulator, type TelegramEmulator } from '../../fakes/telegram-emulator.js';
import { type RefusingServer, startRefusingServer } from './refusing-server.js';

const modelKey = 'sk-doctor-right-key-0123456789';
const telegramToken = '123456789:AAdoctorTokenSecretValue_0123456789';
const webhookSecret = 'doctor-webhook-secret-value';
const secrets = [modelKey, telegramToken, webhookSecret];

// Every variable config/default.yaml reads, blanked: an empty value overrides a developer's .env too.
const configVariables = [
  'OPENAI_API_KEY', 'OPENAI_BASE_URL', 'ANTHROPIC_API_KEY', 'ECHO_MODEL', 'ECHO_ANTHROPIC_MODEL', 'ECHO_DATA_DIR', 'ECHO_STORAGE_URL', 'ECHO_LOG_LEVEL',
  'ECHO_CONFIG', 'ECHO_TIMEZONE', 'ECHO_LOCALE', 'TELEGRAM_BOT_TOKEN', 'TELEGRAM_API_ROOT', 'TELEGRAM_ALLOW_FROM', 'TELEGRAM_APPROVERS', 'TELEGRAM_GROUPS',
  'TELEGRAM_SESSION_PER_USER', 'TELEGRAM_STREAMING', 'TELEGRAM_MODE', 'TELEGRAM_WEBHOOK_URL', 'TELEGRAM_WEBHOOK_SECRET', 'WECHAT_ENABLED', 'WECHAT_PUPPET',
  'WECHAT_PUPPET_TOKEN', 'WECHAT_ALLOW_FROM', 'WECHAT_APPROVERS', 'WECHAT_ROOMS', 'WECHAT_LOCALE', 'GATEWAY_HOST', 'GATEWAY_PORT', 'WEBHOOK_SECRET',
  'QQ_APP_ID', 'QQ_APP_SECRET', 'QQ_MODE', 'QQ_API_ROOT', 'QQ_ALLOW_FROM', 'QQ_APPROVERS', 'QQ_GROUPS',
] as const;

let model: ScriptedModelServer;
let telegram: TelegramEmulator;
let refusing: RefusingServer;
let scratch: string;

beforeAll(async () => {
  ensureBuilt();
  model = await createScriptedModelServer({ apiKey: modelKey });
  telegram = await startTelegramEmulator();
  refusing = await startRefusingServer();
  scratch = mkdtempSync(join(tmpdir(), 'echo-doctor-'));
}, 120_000);
afterAll(async () => {
  await Promise.all([model.close(), telegram.stop(), refusing.close()]);
  rmSync(scratch, { recursive: true, force: true });
});

/** The environment of a fresh clone with no keys, a temporary data folder and a free gateway port, plus the given variables. */
async function environment(variables: Readonly<Record<string, string>> = {}): Promise<Record<string, string | undefined>> {
  const blank = Object.fromEntries(configVariables.map((name) => [name, '']));
  return { ...process.env, ...blank, ECHO_DATA_DIR: mkdtempSync(join(scratch, 'data-')), GATEWAY_PORT: String(await findFreePort()), ...variables };
}

/** The report's lines that carry the given symbol. */
const linesMarked = (stdout: string, symbol: string) => stdout.split('\n').filter((line) => line.startsWith(`${symbol} `));

describe('npm run doctor (compiled)', () => {
  it('on the default config with no keys, exits non-zero and says exactly which key is missing, without a stack trace', async () => {
    const result = await runCompiled(['doctor'], { environment: await environment() });
    expect(result.code).toBe(1);
    expect(linesMarked(result.stdout, '✗')).toEqual([
      '✗ model       openai:gpt-4o-mini: OPENAI_API_KEY is not set: set it, or OPENAI_BASE_URL for a local OpenAI-compatible server (Ollama, vLLM)',
    ]);
    expect(result.stdout).toContain('– telegram    off: TELEGRAM_BOT_TOKEN is not set');
    expect(result.stdout).toContain('– webhook     POST /v1/messages off: WEBHOOK_SECRET is not set');
    expect(result.stdout).toContain('– qq          off: QQ_APP_ID and QQ_APP_SECRET are not set');
    expect(result.stdout).toContain('✓ tools       cli, schedules (messaging): ask_user, cancel_task, list_tasks, memory, message, schedule_task, session_search, todo, web_fetch');
    expect(result.stdout).toContain('1 problem marked ✗');
    expect(`${result.stdout}${result.stderr}`).not.toMatch(/\n\s+at /);
    expect(result.stderr).toBe('');
  });

  it('with a working model, Telegram bot and data folder, every line is fine and it exits 0, printing no secret', async () => {
    const result = await runCompiled(['doctor'], {
      environment: await environment({
        OPENAI_BASE_URL: model.url,
        OPENAI_API_KEY: modelKey,
        ECHO_MODEL: 'scripted-model',
        TELEGRAM_BOT_TOKEN: telegramToken,
        TELEGRAM_API_ROOT: telegram.apiRoot,
        TELEGRAM_ALLOW_FROM: '42',
        TELEGRAM_APPROVERS: '42',
        WEBHOOK_SECRET: webhookSecret,
      }),
    });
    expect(result.code).toBe(0);
    expect(linesMarked(result.stdout, '✗')).toEqual([]);
    expect(linesMarked(result.stdout, '!')).toEqual([]);
    expect(result.stdout).toContain(`✓ model       openai:scripted-model: reachable at 127.0.0.1:${model.port}`);
    expect(result.stdout).toContain('✓ telegram    @TestNameBot (polling via');
    expect(result.stdout).toContain('✓ webhook     POST /v1/messages on');
    expect(result.stdout).toContain('✓ tools       telegram, webhook, cli, schedules (messaging)');
    expect(result.stdout).toContain('Everything needed is in place.');
    expect(model.requests.some((request) => request.path === '/v1/models' && request.headers.authorization === `Bearer ${modelKey}`)).toBe(true);
    for (const secret of secrets) expect(`${result.stdout}${result.stderr}`).not.toContain(secret);
  });

  it('has a QQ section: whether QQ issued a token for the AppID and secret, and where to point the callback', async () => {
    const qqSecret = 'doctor-qq-app-secret-value';
    const qq = await startQqBotApiEmulator({ secret: qqSecret });
    try {
      const result = await runCompiled(['doctor'], {
        environment: await environment({
          OPENAI_BASE_URL: model.url,
          OPENAI_API_KEY: modelKey,
          ECHO_MODEL: 'scripted-model',
          QQ_APP_ID: qq.appId,
          QQ_APP_SECRET: qqSecret,
          QQ_API_ROOT: qq.apiRoot,
          QQ_ALLOW_FROM: 'E4F4ALICE',
        }),
      });
      expect(linesMarked(result.stdout, '✗')).toEqual([]);
      const host = new URL(qq.apiRoot).host;
      expect(result.stdout).toContain(`✓ qq          credentials set; ${host} issued a token (webhook at /qq/callback, 1 allowed user)`);
      expect(result.stdout).toContain('✓ qq          webhook mode: set the callback URL on q.qq.com to https://<your host>/qq/callback');
      expect(result.stdout).toMatch(/✓ tools {7}qq, cli, schedules/);
      expect(qq.tokenRequests()).toBe(1);
      expect(`${result.stdout}${result.stderr}`).not.toContain(qqSecret);
    } finally {
      await qq.stop();
    }
  });

  it('says the model key and the bot token were refused, naming variables and never values', async () => {
    const result = await runCompiled(['doctor'], {
      environment: await environment({
        OPENAI_BASE_URL: `${refusing.origin}/v1`,
        OPENAI_API_KEY: 'sk-doctor-wrong-key-0123456789',
        TELEGRAM_BOT_TOKEN: telegramToken,
        TELEGRAM_API_ROOT: refusing.origin,
      }),
    });
    expect(result.code).toBe(1);
    const host = new URL(refusing.origin).host;
    expect(result.stdout).toContain(`✗ model       openai:gpt-4o-mini: the key was refused by ${host} (HTTP 401): check OPENAI_API_KEY`);
    expect(result.stdout).toContain(`✗ telegram    the token was refused by ${host} (401 Unauthorized): get a new one from @BotFather`);
    expect(result.stdout).toContain('! telegram    TELEGRAM_ALLOW_FROM is empty: nobody can reach the model; strangers are told their id');
    expect(result.stdout).toContain('! telegram    TELEGRAM_APPROVERS is empty: each requester approves their own actions');
    expect(refusing.requests.map((request) => request.path).sort()).toEqual([`/bot${telegramToken}/getMe`, '/v1/models']);
    for (const secret of ['sk-doctor-wrong-key-0123456789', telegramToken]) expect(`${result.stdout}${result.stderr}`).not.toContain(secret);
  });

  it('says which hosts cannot be reached', async () => {
    const result = await runCompiled(['doctor'], {
      environment: await environment({ OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', TELEGRAM_BOT_TOKEN: telegramToken, TELEGRAM_API_ROOT: 'http://127.0.0.1:9' }),
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('✗ model       openai:gpt-4o-mini: cannot reach 127.0.0.1:9');
    expect(result.stdout).toContain('✗ telegram    cannot reach 127.0.0.1:9');
    expect(result.stdout).not.toContain(telegramToken);
  });

  it('fails a WeChat puppet that is not installed with the command that installs it', async () => {
    const result = await runCompiled(['doctor'], {
      environment: await environment({ OPENAI_BASE_URL: model.url, OPENAI_API_KEY: modelKey, ECHO_MODEL: 'scripted-model', WECHAT_ENABLED: 'true', WECHAT_PUPPET: 'wechaty-puppet-not-installed' }),
    });
    expect(result.code).toBe(1);
    expect(linesMarked(result.stdout, '✗')).toEqual(['✗ wechat      the puppet wechaty-puppet-not-installed is not installed: npm i -E wechaty-puppet-not-installed']);
  });

  it('reports a bad config file key by key with exit code 2, never echoing a secret', async () => {
    const configFile = join(scratch, 'bad.yaml');
    writeFileSync(configFile, 'gateway:\n  port: not-a-port\nchannels:\n  webhook:\n    secret: [hunter2-secret-value]\n');
    const result = await runCompiled(['doctor', '--config', configFile], { environment: await environment() });
    expect(result.code).toBe(2);
    expect(result.stdout).toContain(`✗ config  not valid (read config/default.yaml, ${configFile}):`);
    expect(result.stdout).toContain('✗ config  gateway.port: ');
    expect(result.stdout).toContain('✗ config  channels.webhook.secret: ');
    expect(result.stdout).toContain('The configuration is not valid: fix the keys marked ✗');
    expect(result.stdout).not.toContain('hunter2-secret-value');
  });

  it('--json prints the same checks as data', async () => {
    const result = await runCompiled(['doctor', '--json'], { environment: await environment({ WEBHOOK_SECRET: webhookSecret }) });
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as { ok: boolean; exitCode: number; checks: { status: string; subject: string; text: string }[] };
    expect(report).toMatchObject({ ok: false, exitCode: 1 });
    expect(report.checks.filter((check) => check.status === 'fail').map((check) => check.subject)).toEqual(['model']);
    expect(result.stdout).not.toContain(webhookSecret);
  });
});
