// Fault: load and time. 5,000 Telegram messages from 500 users, 50 of them strangers (not in
// TELEGRAM_ALLOW_FROM), through the in-process app (Telegram webhook mode: updates posted to its gateway route), the emulator and a scripted model that answers at once,
// with `storage.dedupeHours` so small (about 2 s) that rows expire while the test runs.
// Proves: every allowed message is answered; after `purgeExpired()` the store's row count is bounded by the
// allowed users' sessions plus a small constant (it does not grow with the number of messages); strangers add
// no rows at all. Prints the counts.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createScriptedModelServer, type ScriptedModelServer } from '../fakes/scripted-model-server.js';
import { startTestApp, type TestApp, waitFor } from '../fakes/start-test-app.js';
import { findFreePort, startTelegramEmulator, type TelegramEmulator } from '../fakes/telegram-emulator.js';
import { scenarioToken } from '../fakes/telegram-scenario.js';

const users = 500;
const strangers = 50;
const rounds = 10;
const firstId = 100_000;
/** Rows that are neither per person nor expiring: the start-up probe, the usage counters per model and origin and overall, a little slack. */
const constantRows = 20;
/** What the store keeps per person who talked today: the conversation, and the usage counters of the person and of their chat. */
const rowsPerPerson = 3;
const secret = 'soak-webhook-secret';

const allowed = Array.from({ length: users - strangers }, (_, index) => firstId + index);
const outsiders = Array.from({ length: strangers }, (_, index) => firstId + users - strangers + index);

describe('soak: 5,000 messages from 500 users', () => {
  let emulator: TelegramEmulator | undefined;
  let model: ScriptedModelServer | undefined;
  let testApp: TestApp | undefined;
  let configDir: string | undefined;
  afterEach(async () => {
    await testApp?.stop();
    testApp = undefined;
    await emulator?.stop();
    emulator = undefined;
    await model?.close();
    if (configDir) rmSync(configDir, { recursive: true, force: true });
  });

  it('answers every allowed message and keeps the store bounded once expired rows are purged', async () => {
    emulator = await startTelegramEmulator();
    const currentEmulator = emulator;
    model = await createScriptedModelServer({ fallback: (_body, context) => ({ text: `ok: ${context.lastUserText}` }) });
    configDir = mkdtempSync(join(tmpdir(), 'echo-soak-'));
    const configFile = join(configDir, 'soak.yaml');
    // Webhook mode: updates are posted straight to the gateway route, as Telegram does, the quickest way in.
    writeFileSync(
      configFile,
      [
        'storage:',
        '  dedupeHours: 0.0005',
        'channels:',
        '  telegram:',
        '    mode: webhook',
        '    webhookUrl: https://bot.example.com/telegram/hook',
        `    webhookSecret: ${secret}`,
        '    limits:',
        '      perChatPerSecond: 1000',
        '      perChatBurst: 1000',
        '      globalPerSecond: 100000',
        '',
      ].join('\n'),
    );
    const port = await findFreePort();
    testApp = await startTestApp({
      configFile,
      environment: { TELEGRAM_BOT_TOKEN: scenarioToken, TELEGRAM_API_ROOT: emulator.apiRoot, TELEGRAM_ALLOW_FROM: allowed.join(','), OPENAI_BASE_URL: model.url, GATEWAY_PORT: String(port) },
    });
    // Only this bot talks to the emulator: its message count is the number of answers.
    const answered = () => currentEmulator.server.storage.botMessages.length;
    // Plain node:http with kept-alive connections: the cheapest client, since the app shares this process's CPU.
    const agent = new Agent({ keepAlive: true, maxSockets: 50 });
    let updateId = 0;
    const post = async (userId: number, text: string) => {
      updateId += 1;
      const update = { update_id: updateId, message: { message_id: updateId, date: Math.floor(Date.now() / 1000), from: { id: userId, is_bot: false, first_name: `User ${userId}` }, chat: { id: userId, type: 'private' }, text } };
      const body = JSON.stringify(update);
      const status = await new Promise<number>((resolve, reject) => {
        const request = httpRequest(
          { host: '127.0.0.1', port, path: '/telegram/hook', method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-telegram-bot-api-secret-token': secret } },
          (response) => {
            response.resume();
            response.once('end', () => resolve(response.statusCode ?? 0));
          },
        );
        request.once('error', reject);
        request.end(body);
      });
      if (status !== 200) throw new Error(`update ${updateId} answered ${status}`);
    };
    const sendFrom = async (userIds: readonly number[], text: (userId: number) => string) => {
      // A few dozen requests at a time: the emulator and the model share this process with the app.
      for (let start = 0; start < userIds.length; start += 50) {
        await Promise.all(userIds.slice(start, start + 50).map((userId) => post(userId, text(userId))));
      }
    };

    const everyone = [...allowed, ...outsiders].sort((left, right) => left - right);
    for (let round = 1; round <= rounds; round += 1) {
      await sendFrom(everyone, (userId) => `message ${round} from ${userId}`);
      await waitFor(() => answered() >= allowed.length * round, `the answers of round ${round}`, 60_000);
    }
    expect(answered()).toBe(allowed.length * rounds);
    const outsiderChats = new Set(outsiders.map(String));
    expect(currentEmulator.botMessages(scenarioToken).filter((message) => outsiderChats.has(message.chatId))).toEqual([]);

    const { store } = testApp.app;
    await testApp.app.bus.idle();
    const beforePurge = await store.countRows();
    // Every dedupe row expires about 2 s after its message: purge until they are gone (bounded by the wait).
    let purged = 0;
    const afterPurge = await waitFor(
      async () => {
        purged += await store.purgeExpired();
        const rows = await store.countRows();
        return rows <= allowed.length * rowsPerPerson + constantRows ? rows : undefined;
      },
      'the store to shrink to sessions plus a constant after purging',
      30_000,
    );
    const sessions = await store.namespace('sessions').entries();
    expect(sessions).toHaveLength(allowed.length);
    // Usage is counted per day, not per message: two counters per person (theirs and their chat's), however much they wrote.
    const usage = await store.namespace('usage').entries();
    expect(usage.filter(([key]) => key.includes('|user|') || key.includes('|chat|'))).toHaveLength(allowed.length * 2);
    for (const outsider of outsiders) expect(sessions.some(([key]) => key.includes(String(outsider)))).toBe(false);

    // Strangers alone must add no row at all: the gateway answers a webhook update only after dispatching it.
    await sendFrom(outsiders, (userId) => `stranger ${userId} knocking`);
    await testApp.app.bus.idle();
    const afterStrangers = await store.countRows();
    agent.destroy();
    expect(afterStrangers).toBe(afterPurge);

    process.stdout.write(
      `soak: ${rounds * users} messages (${rounds * outsiders.length} from strangers), ${answered()} answers; rows before purge ${beforePurge}, purged ${purged}, after purge ${afterPurge} (sessions ${sessions.length}, bound ${allowed.length * rowsPerPerson + constantRows}); after ${outsiders.length} more stranger messages: ${afterStrangers}\n`,
    );
  }, 120_000);
});
