// /link across channels in one app: Telegram (emulator) and WeChat (the real adapter over the mock puppet), the
// scripted model. A code asked for on Telegram and sent from WeChat joins the two accounts: what the person told the
// bot on Telegram is recalled in their WeChat chat, and /memory there names the channel it was said on.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createWechatAdapter } from '../../../channels/wechat/wechat-adapter.js';
import { builtinChannels } from '../../../src/app/builtin-channels.js';
import { factExtractionPrompt } from '../../../src/memory/fact-extraction-prompt.js';
import { createScriptedModelServer, type ScriptedModelServer, type ScriptedRequestBody } from '../../fakes/scripted-model-server.js';
import { startTestApp, type TestApp, waitFor } from '../../fakes/start-test-app.js';
import { startTelegramEmulator, type TelegramEmulator } from '../../fakes/telegram-emulator.js';
import { scenarioToken } from '../../fakes/telegram-scenario.js';
import { createWechatMockWorld } from '../../fakes/wechat-mock-world.js';

const isExtraction = (body: ScriptedRequestBody | undefined) => body?.messages?.[0]?.content === factExtractionPrompt;

function extraction(body: ScriptedRequestBody): { text: string } {
  const text = String(body.messages?.[1]?.content ?? '');
  const facts = [...text.matchAll(/my ([a-z ]+?) is (\w+)/gi)].map((match) => ({ subject: match[1] ?? '', statement: `Their ${match[1]} is ${match[2]}.`, about: 'speaker' }));
  return { text: JSON.stringify({ facts }) };
}

describe('/link across Telegram and WeChat', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    while (cleanups.length > 0) await cleanups.pop()?.();
  });

  it('a code from Telegram, sent from WeChat, makes the Telegram facts the WeChat account\'s too', async () => {
    const emulator: TelegramEmulator = await startTelegramEmulator();
    cleanups.push(() => emulator.stop());
    const model: ScriptedModelServer = await createScriptedModelServer();
    cleanups.push(() => model.close());
    model.setFallback((body, context) => (isExtraction(body) ? extraction(body) : { text: `ok: ${context.lastUserText.split('\n')[0]}` }));
    const configDir = mkdtempSync(join(tmpdir(), 'echo-link-config-'));
    cleanups.push(() => rmSync(configDir, { recursive: true, force: true }));
    const configFile = join(configDir, 'link.yaml');
    writeFileSync(configFile, 'memory:\n  enabled: true\n');
    const world = createWechatMockWorld();
    const wechat = createWechatAdapter({ puppet: world.puppet, sendIntervalMs: 0, sendJitterMs: 0, printQrCode: () => undefined });
    const testApp: TestApp = await startTestApp({
      configFile,
      channels: builtinChannels.map((adapter) => (adapter.name === wechat.name ? wechat : adapter)),
      environment: { TELEGRAM_BOT_TOKEN: scenarioToken, TELEGRAM_API_ROOT: emulator.apiRoot, TELEGRAM_ALLOW_FROM: '1001', OPENAI_BASE_URL: model.url, GATEWAY_PORT: '0', WECHAT_ENABLED: 'true', WECHAT_ALLOW_FROM: 'alice_wx' },
    });
    cleanups.push(() => testApp.stop());
    world.login();
    await waitFor(() => testApp.app.channels.get('wechat')?.status().state === 'running', 'the WeChat channel to log in');

    const onTelegram = emulator.privateChatClient(scenarioToken, 1001);
    const botSaid = (check: (text: string) => boolean, what: string) => waitFor(() => emulator.botMessages(scenarioToken, 1001).find((message) => check(message.text)), what);
    await onTelegram.sendMessage(onTelegram.makeMessage('my home city is Lyon'));
    await botSaid((text) => text === 'ok: my home city is Lyon', 'the Telegram answer');
    await testApp.app.bus.idle();
    await onTelegram.sendMessage(onTelegram.makeMessage('/link'));
    const issued = await botSaid((text) => text.startsWith('Your link code:'), 'the code');
    const code = /Your link code: ([A-Z0-9]{8})/.exec(issued.text)?.[1] ?? '';

    const alice = world.contact('alice_wx', 'Alice');
    world.say(alice, `/link ${code}`);
    const [linked = ''] = await world.waitForSent('alice_wx', 1);
    expect(linked.startsWith('已关联')).toBe(true);
    world.say(alice, '我住在哪里？');
    await world.waitForSent('alice_wx', 2);
    const prompt = String(model.requests.filter((request) => request.path === '/v1/chat/completions' && !isExtraction(request.body)).at(-1)?.body?.messages?.[0]?.content ?? '');
    expect(prompt).toContain('Their home city is Lyon.');
    world.say(alice, '/memory');
    const [, , listing = ''] = await world.waitForSent('alice_wx', 3);
    expect(listing).toMatch(/^1\. Their home city is Lyon\.（来自 @user1001，\d{4}-\d{2}-\d{2}，在 telegram）$/m);
  });
});
