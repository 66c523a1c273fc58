// Two instances of echo-agent on one PostgreSQL (a scratch database), polling one bot through the
// Telegram emulator: only one polls at a time, every message is answered once whichever instance runs
// its turn, and when the polling instance stops the other takes the bot over.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, isPostgresUp } from '../../contracts/scratch-postgres.js';
import { createScriptedModelServer, type ScriptedModelServer } from '../../fakes/scripted-model-server.js';
import { startTestApp, type TestApp, waitFor } from '../../fakes/start-test-app.js';
import { startTelegramEmulator, type TelegramEmulator } from '../../fakes/telegram-emulator.js';

const token = '123456789:AAclusterScenarioTokenForTheEmulator';
const postgresUp = await isPostgresUp();
if (!postgresUp) console.warn('PostgreSQL is not running on 127.0.0.1:5432: the cluster scenarios are skipped.');

describe.skipIf(!postgresUp)('two instances on one PostgreSQL', () => {
  let database: Awaited<ReturnType<typeof createScratchDatabase>>;
  let emulator: TelegramEmulator;
  let model: ScriptedModelServer;
  const instances: TestApp[] = [];

  beforeAll(async () => {
    database = await createScratchDatabase();
    emulator = await startTelegramEmulator();
    model = await createScriptedModelServer();
    model.setFallback((_body, context) => ({ text: `answer: ${context.lastUserText}` }));
    for (let index = 0; index < 2; index += 1) {
      instances.push(
        await startTestApp({
          environment: {
            ECHO_STORAGE_URL: database.url,
            TELEGRAM_BOT_TOKEN: token,
            TELEGRAM_API_ROOT: emulator.apiRoot,
            TELEGRAM_ALLOW_FROM: '501,502',
            OPENAI_BASE_URL: model.url,
            GATEWAY_PORT: '0',
          },
          configFile: undefined,
        }),
      );
    }
  }, 60_000);

  afterAll(async () => {
    for (const instance of instances) await instance.stop().catch(() => undefined);
    await emulator?.stop();
    await model?.close();
    await database?.drop();
  }, 60_000);

  const pollerDetail = (instance: TestApp) => instance.app.channels.get('telegram')?.status().detail ?? '';
  const polling = () => instances.filter((instance) => !pollerDetail(instance).startsWith('standby'));

  it('polls the bot from one instance only and answers every message once', async () => {
    await waitFor(() => (polling().length === 1 ? true : undefined), 'one instance polling the bot');
    const texts: string[] = [];
    for (const userId of [501, 502]) {
      const person = emulator.server.getClient(token, { userId, chatId: userId, type: 'private', userName: `user${userId}`, firstName: `User ${userId}` });
      for (let number = 1; number <= 3; number += 1) {
        const text = `user ${userId} message ${number}`;
        texts.push(text);
        await person.sendMessage(person.makeMessage(text));
      }
    }
    await waitFor(() => (texts.every((text) => emulator.botMessages(token).some((message) => message.text === `answer: ${text}`)) ? true : undefined), 'an answer to every message');
    for (const text of texts) expect(emulator.botMessages(token).filter((message) => message.text === `answer: ${text}`)).toHaveLength(1);
    // In order per chat.
    for (const userId of [501, 502]) {
      const answers = emulator.botMessages(token, userId).map((message) => message.text);
      expect(answers).toEqual([1, 2, 3].map((number) => `answer: user ${userId} message ${number}`));
    }
  }, 60_000);

  it('hands the bot to the other instance when the polling one stops', async () => {
    const leader = polling()[0];
    if (!leader) throw new Error('no instance polls');
    const follower = instances.find((instance) => instance !== leader);
    if (!follower) throw new Error('no second instance');
    await leader.stop();
    instances.splice(instances.indexOf(leader), 1);
    await waitFor(() => (!pollerDetail(follower).startsWith('standby') ? true : undefined), 'the other instance polling the bot', 20_000);
    const person = emulator.server.getClient(token, { userId: 501, chatId: 501, type: 'private', userName: 'user501', firstName: 'User 501' });
    await person.sendMessage(person.makeMessage('after the hand-over'));
    await waitFor(() => emulator.botMessages(token).find((message) => message.text === 'answer: after the hand-over'), 'the answer after the hand-over');
  }, 60_000);
});
