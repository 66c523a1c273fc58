import { afterEach, describe, expect, it } from 'vitest';
import { startTelegramScenario, type TelegramScenario } from '../../fakes/telegram-scenario.js';

describe('telegram chat over the Bot API emulator', () => {
  let scenario: TelegramScenario | undefined;
  afterEach(async () => {
    await scenario?.stop();
    scenario = undefined;
  });

  it('answers an allowed user in the same chat, threaded under their message, as HTML', async () => {
    scenario = await startTelegramScenario({ allowFrom: '1001' });
    scenario.model.enqueue({ text: 'Hello **Alice**, 2 < 3 & fine.' });
    const client = scenario.client({ userId: 1001 });
    await client.sendMessage(client.makeMessage('hi there'));
    const answer = await scenario.waitForBotMessage((message) => message.text.includes('Alice'), 'the answer');
    expect(answer).toMatchObject({ chatId: '1001', parseMode: 'HTML', text: 'Hello <b>Alice</b>, 2 &lt; 3 &amp; fine.' });
    const asked = scenario.emulator.server.storage.userMessages.find((stored) => 'message' in stored && stored.message.text === 'hi there');
    expect(answer.replyTo).toBe(asked?.messageId);
    expect(scenario.testApp.app.channels.get('telegram')?.status().state).toBe('running');
    const lastRequest = scenario.modelRequests().at(-1);
    expect(JSON.stringify(lastRequest?.body?.messages)).toContain('hi there');
  });

  it('shows "typing" while a slow answer is coming', async () => {
    scenario = await startTelegramScenario({ allowFrom: '1001' });
    const current = scenario;
    current.model.enqueue({ text: 'after a while', delayMs: 1500 });
    const client = current.client({ userId: 1001 });
    await client.sendMessage(client.makeMessage('slow question'));
    await current.waitForBotMessage((message) => message.text === 'after a while', 'the slow answer');
    expect(current.proxy.callsOf('sendChatAction').map((call) => call.body)).toContainEqual({ chat_id: '1001', action: 'typing' });
  });
});
