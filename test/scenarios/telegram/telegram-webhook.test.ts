import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createScriptedModelServer, type ScriptedModelServer } from '../../fakes/scripted-model-server.js';
import { startTestApp, type TestApp, waitFor } from '../../fakes/start-test-app.js';
import { findFreePort, startTelegramEmulator, type TelegramEmulator } from '../../fakes/telegram-emulator.js';
import { scenarioToken } from '../../fakes/telegram-scenario.js';

const secret = 'webhook-secret-for-the-scenario';

describe('telegram webhook mode through the HTTP gateway', () => {
  let emulator: TelegramEmulator | undefined;
  let model: ScriptedModelServer | undefined;
  let testApp: TestApp | undefined;
  let configDir: string | undefined;
  afterEach(async () => {
    await testApp?.stop();
    await emulator?.stop();
    await model?.close();
    if (configDir) rmSync(configDir, { recursive: true, force: true });
  });

  it('mounts the route on the gateway, checks the secret token, and answers through the Bot API', async () => {
    emulator = await startTelegramEmulator();
    model = await createScriptedModelServer({ fallback: { text: 'answered from a webhook update' } });
    configDir = mkdtempSync(join(tmpdir(), 'echo-telegram-webhook-'));
    const configFile = join(configDir, 'webhook.yaml');
    writeFileSync(configFile, `channels:\n  telegram:\n    mode: webhook\n    webhookUrl: https://bot.example.com/telegram/hook\n    webhookSecret: ${secret}\n`);
    const port = await findFreePort();
    testApp = await startTestApp({
      configFile,
      environment: { TELEGRAM_BOT_TOKEN: scenarioToken, TELEGRAM_API_ROOT: emulator.apiRoot, TELEGRAM_ALLOW_FROM: '1001', OPENAI_BASE_URL: model.url, WEBHOOK_PORT: String(port) },
    });
    const update = { update_id: 9001, message: { message_id: 41, date: 0, from: { id: 1001, is_bot: false, first_name: 'Alice' }, chat: { id: 1001, type: 'private' }, text: 'hello over the webhook' } };
    const post = (headers: Record<string, string>) =>
      fetch(`http://127.0.0.1:${port}/telegram/hook`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(update) });

    expect((await post({})).status).toBe(401);
    expect((await post({ 'x-telegram-bot-api-secret-token': 'not-the-secret' })).status).toBe(401);
    expect((await post({ 'x-telegram-bot-api-secret-token': secret })).status).toBe(200);
    // Telegram re-delivers when it does not see an answer in time: the copy is not run again.
    expect((await post({ 'x-telegram-bot-api-secret-token': secret })).status).toBe(200);

    const answer = await waitFor(() => emulator?.botMessages(scenarioToken, 1001).find((message) => message.text === 'answered from a webhook update'), 'the answer');
    expect(answer.replyTo).toBe(41);
    await testApp.app.bus.idle();
    expect(model.requests.filter((request) => request.path === '/v1/chat/completions')).toHaveLength(1);
    expect(testApp.app.startupLines.find((line) => line.startsWith('telegram:'))).toBe('telegram: on (webhook at bot.example.com, 1 allowed user)');
  });
});
