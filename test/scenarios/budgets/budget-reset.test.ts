import { afterEach, describe, expect, it } from 'vitest';
import { startTelegramScenario, type TelegramScenario } from '../../fakes/telegram-scenario.js';

describe('budget periods', () => {
  let scenario: TelegramScenario | undefined;
  afterEach(async () => {
    await scenario?.stop();
    scenario = undefined;
  });

  it('reset at midnight in agent.timezone, not in UTC (injected clock)', async () => {
    // 15:30 UTC is 23:30 in Shanghai: half an hour before the chat's day ends there, while UTC's lasts another 8.5 hours.
    let now = new Date('2026-03-10T15:30:00Z');
    const yaml = 'agent:\n  timezone: Asia/Shanghai\nbudgets:\n  softLimit: 1\n  chat: { daily: { tokens: 100 } }\n';
    scenario = await startTelegramScenario({ allowFrom: '1001', yaml, now: () => now });
    const client = scenario.client({ userId: 1001 });
    scenario.model.enqueue({ text: 'before midnight', usage: { input: 90, output: 20 } });
    await client.sendMessage(client.makeMessage('one'));
    await scenario.waitForBotMessage((message) => message.text === 'before midnight', 'the first answer');

    await client.sendMessage(client.makeMessage('two'));
    const stopped = await scenario.waitForBotMessage((message) => message.text.startsWith('This chat has used up'), 'the hard limit');
    expect(stopped.text).toContain('it resets 2026-03-11 00:00 (Asia/Shanghai).');

    now = new Date('2026-03-10T15:59:59Z');
    await client.sendMessage(client.makeMessage('three'));
    await scenario.waitForBotMessage((message) => message.text.startsWith('This chat has used up') && message.messageId !== stopped.messageId, 'still stopped one second before midnight');
    expect(scenario.modelRequests()).toHaveLength(1);

    now = new Date('2026-03-10T16:00:00Z');
    scenario.model.enqueue({ text: 'a new day' });
    await client.sendMessage(client.makeMessage('four'));
    await scenario.waitForBotMessage((message) => message.text === 'a new day', 'the answer after the reset');
    const { day, month } = scenario.testApp.app.budgets.ledger.periods();
    expect([day, month]).toEqual(['day:2026-03-11', 'month:2026-03']);
  });
});
