import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createScriptedModelServer, type ScriptedModelServer } from '../../fakes/scripted-model-server.js';
import { startTestApp, type TestApp, waitFor } from '../../fakes/start-test-app.js';
import { findFreePort, startTelegramEmulator, type TelegramEmulator } from '../../fakes/telegram-emulator.js';
import { startTelegramFaultProxy, type TelegramFaultProxy } from '../../fakes/telegram-fault-proxy.js';
import { scenarioToken } from '../../fakes/telegram-scenario.js';
import { createPdf, oggBytes, pngBytes } from '../../fakes/media-samples.js';

const secret = 'webhook-secret-for-the-scenario';
const alice = { id: 1001, is_bot: false, first_name: 'Alice', username: 'alice', language_code: 'en' };
const chat = { id: 1001, first_name: 'Alice', username: 'alice', type: 'private' };

describe('telegram webhook mode through the HTTP gateway', () => {
  let emulator: TelegramEmulator | undefined;
  let proxy: TelegramFaultProxy | undefined;
  let model: ScriptedModelServer | undefined;
  let testApp: TestApp | undefined;
  let configDir: string | undefined;
  afterEach(async () => {
    await testApp?.stop();
    await proxy?.close();
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
      environment: { TELEGRAM_BOT_TOKEN: scenarioToken, TELEGRAM_API_ROOT: emulator.apiRoot, TELEGRAM_ALLOW_FROM: '1001', OPENAI_BASE_URL: model.url, GATEWAY_PORT: String(port) },
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

  it('an album posted as three updates is one turn; a PDF and a voice note arrive as text the model reads', async () => {
    emulator = await startTelegramEmulator();
    proxy = await startTelegramFaultProxy(emulator.apiRoot);
    model = await createScriptedModelServer();
    configDir = mkdtempSync(join(tmpdir(), 'echo-telegram-webhook-'));
    const configFile = join(configDir, 'webhook.yaml');
    writeFileSync(configFile, `channels:\n  telegram:\n    mode: webhook\n    webhookUrl: https://bot.example.com/telegram/hook\n    webhookSecret: ${secret}\n    albumWindowMs: 300\n`);
    const port = await findFreePort();
    testApp = await startTestApp({
      configFile,
      environment: { TELEGRAM_BOT_TOKEN: scenarioToken, TELEGRAM_API_ROOT: proxy.apiRoot, TELEGRAM_ALLOW_FROM: '1001', OPENAI_BASE_URL: model.url, ECHO_TRANSCRIPTION_BASE_URL: model.url, GATEWAY_PORT: String(port) },
    });
    const post = async (update: unknown) => {
      const response = await fetch(`http://127.0.0.1:${port}/telegram/hook`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': secret }, body: JSON.stringify(update) });
      expect(response.status).toBe(200);
    };
    const answered = (text: string) => waitFor(() => emulator?.botMessages(scenarioToken, 1001).find((message) => message.text === text), text);
    const lastUserContent = () => [...(model?.requests.at(-1)?.body?.messages ?? [])].reverse().find((message) => message.role === 'user')?.content;

    // As Telegram sends an album: one update per photo, the same media_group_id, the caption on the first.
    for (const name of ['p1', 'p2', 'p3']) proxy.hostFile(`AgACAgQAAxkBAAI${name}`, { bytes: pngBytes });
    const photo = (name: string) => [
      { file_id: `AgACAgQAAxkBAAI${name}-s`, file_unique_id: `AQAD${name}s`, file_size: 1201, width: 90, height: 67 },
      { file_id: `AgACAgQAAxkBAAI${name}`, file_unique_id: `AQAD${name}`, file_size: pngBytes.length, width: 1280, height: 960 },
    ];
    model.enqueue({ text: 'a lovely album' });
    await post({ update_id: 7001, message: { message_id: 501, from: alice, chat, date: 1_760_000_000, media_group_id: '13813377405', photo: photo('p1'), caption: 'holiday' } });
    await post({ update_id: 7002, message: { message_id: 502, from: alice, chat, date: 1_760_000_000, media_group_id: '13813377405', photo: photo('p2') } });
    await post({ update_id: 7003, message: { message_id: 503, from: alice, chat, date: 1_760_000_000, media_group_id: '13813377405', photo: photo('p3') } });
    expect((await answered('a lovely album')).replyTo).toBe(501);
    await testApp.app.bus.idle();
    expect(model.requests.filter((request) => request.path === '/v1/chat/completions')).toHaveLength(1);
    const album = lastUserContent() as { type: string; text?: string }[];
    expect(album.map((part) => part.type)).toEqual(['text', 'image_url', 'image_url', 'image_url']);
    expect(album[0]?.text).toBe('holiday');

    proxy.hostFile('BQACAgQAAxkBAAIpdf', { bytes: createPdf('Meeting at 10:30 in room B') });
    model.enqueue({ text: 'got the agenda' });
    await post({
      update_id: 7004,
      message: { message_id: 504, from: alice, chat, date: 1_760_000_100, document: { file_name: 'agenda.pdf', mime_type: 'application/pdf', file_id: 'BQACAgQAAxkBAAIpdf', file_unique_id: 'AgADpdf', file_size: 900 } },
    });
    await answered('got the agenda');
    expect(String(lastUserContent())).toContain('its text follows.]\nMeeting at 10:30 in room B');

    proxy.hostFile('AwACAgQAAxkBAAIvoice', { bytes: oggBytes });
    model.setTranscription(() => ({ text: 'call me back later' }));
    model.enqueue({ text: 'will do' });
    await post({ update_id: 7005, message: { message_id: 505, from: alice, chat, date: 1_760_000_200, voice: { duration: 2, mime_type: 'audio/ogg', file_id: 'AwACAgQAAxkBAAIvoice', file_unique_id: 'AgADvoice', file_size: oggBytes.length } } });
    await answered('will do');
    expect(lastUserContent()).toBe('[Voice message: the person said this aloud; transcript follows.]\ncall me back later');
  });
});
