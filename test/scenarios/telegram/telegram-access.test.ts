import { afterEach, describe, expect, it } from 'vitest';
import { startTelegramScenario, type TelegramScenario } from '../../fakes/telegram-scenario.js';
import { waitFor } from '../../fakes/start-test-app.js';

describe('telegram access', () => {
  let scenario: TelegramScenario | undefined;
  afterEach(async () => {
    await scenario?.stop();
    scenario = undefined;
  });

  it('never lets a stranger reach the model when TELEGRAM_ALLOW_FROM is set', async () => {
    scenario = await startTelegramScenario({ allowFrom: '1001' });
    scenario.model.setFallback((_body, context) => ({ text: `echo: ${context.lastUserText}` }));
    const stranger = scenario.client({ userId: 9009 });
    await stranger.sendMessage(stranger.makeMessage('let me in'));
    const owner = scenario.client({ userId: 1001 });
    await owner.sendMessage(owner.makeMessage('hello'));
    await scenario.waitForBotMessage((message) => message.text === 'echo: hello', 'the answer to the allowed user');
    expect(scenario.modelRequests()).toHaveLength(1);
    expect(JSON.stringify(scenario.modelRequests()[0]?.body)).not.toContain('let me in');
    expect(scenario.botMessages(9009)).toHaveLength(0);
  });

  it('tells an unknown sender their id once an hour when nobody is allowed yet, and never calls the model', async () => {
    scenario = await startTelegramScenario({ allowFrom: '' });
    const first = scenario.client({ userId: 9009 });
    await first.sendMessage(first.makeMessage('hello?'));
    await first.sendMessage(first.makeMessage('hello again?'));
    const second = scenario.client({ userId: 9010 });
    await second.sendMessage(second.makeMessage('hi'));
    // The updates of one poll are dispatched side by side, so the two strangers' notices may come in either order;
    // the next poll's offset past all three says every one of them was handled (and any second notice sent).
    await scenario.waitForBotMessage((message) => message.chatId === '9010', 'the notice to the second stranger');
    await scenario.waitForBotMessage((message) => message.chatId === '9009', 'the notice to the first stranger');
    const lastUpdateId = Math.max(...scenario.proxy.deliveredUpdates.map((update) => update.update_id));
    await waitFor(() => scenario?.proxy.callsOf('getUpdates').some((call) => Number(call.body.offset ?? 0) > lastUpdateId), 'a poll acknowledging all three updates');
    const notices = scenario.botMessages(9009);
    expect(notices).toHaveLength(1);
    expect(notices[0]?.text).toContain('Your user id is 9009');
    expect(scenario.modelRequests()).toHaveLength(0);
  });

  it('answers a kind of message it cannot read (a game) with a clear sentence instead of dropping it', async () => {
    scenario = await startTelegramScenario({ allowFrom: '1001' });
    const client = scenario.client({ userId: 1001 });
    const game = client.makeMessage('', { game: { title: 'Chess', description: 'a game', photo: [] } } as never) as Record<string, unknown>;
    delete game.text;
    await client.sendMessage(game as never);
    const answer = await scenario.waitForBotMessage((message) => message.chatId === '1001', 'the answer to the game');
    expect(answer.text).toBe("I can't read this kind of message yet. Please send text.");
    expect(scenario.modelRequests()).toHaveLength(0);
  });

  it('handles the shared commands in the core: /start greets and /new resets the session', async () => {
    scenario = await startTelegramScenario({ allowFrom: '1001' });
    const client = scenario.client({ userId: 1001 });
    await client.sendMessage(client.makeMessage('/start'));
    await scenario.waitForBotMessage((message) => message.text.startsWith('Hi, I am'), 'the greeting');
    await client.sendMessage(client.makeMessage('/new'));
    await scenario.waitForBotMessage((message) => message.text.startsWith('Started a fresh conversation'), 'the reset');
    expect(scenario.modelRequests()).toHaveLength(0);
    expect(scenario.proxy.callsOf('setMyCommands')[0]?.body).toMatchObject({ commands: expect.arrayContaining([{ command: 'approve', description: expect.any(String) }]) });
  });
});
