import { afterEach, describe, expect, it } from 'vitest';
import type { PendingApproval } from '../../../src/approvals/pending-approval.js';
import type { EmulatedBotMessage } from '../../fakes/telegram-emulator.js';
import { startTelegramScenario, type TelegramScenario } from '../../fakes/telegram-scenario.js';

const yaml = `
approvals:
  explain: false
budgets:
  softLimit: 0.5
  chat: { daily: { tokens: 1000 } }
`;

function buttonData(card: EmulatedBotMessage, label: RegExp): string {
  const button = card.keyboard?.flat().find((candidate) => label.test(candidate.text));
  if (!button) throw new Error(`no button ${label} on the card: ${JSON.stringify(card.keyboard)}`);
  return button.callback_data;
}

describe('the soft-limit card', () => {
  let scenario: TelegramScenario | undefined;
  afterEach(async () => {
    await scenario?.stop();
    scenario = undefined;
  });

  async function crossSoftLimit(current: TelegramScenario): Promise<EmulatedBotMessage> {
    const client = current.client({ userId: 1001 });
    current.model.enqueue({ text: 'first answer', usage: { input: 550, output: 50 } });
    await client.sendMessage(client.makeMessage('first'));
    await current.waitForBotMessage((message) => message.text === 'first answer', 'the first answer');
    await client.sendMessage(client.makeMessage('second'));
    return current.waitForBotMessage((message) => (message.keyboard?.length ?? 0) > 0, 'the budget card');
  }

  it('appears once the chat passed its share of the budget, holds the message without asking the model, and Continue runs it; no card again that day', async () => {
    scenario = await startTelegramScenario({ allowFrom: '1001', yaml });
    const card = await crossSoftLimit(scenario);
    expect(card.text).toContain("This chat has used 60 % of today's budget (600 of 1,000 tokens). Continue?");
    expect(card.keyboard?.flat().map((button) => button.text)).toEqual(['✅ Continue for today', '⏸ Stop until tomorrow']);
    expect(scenario.modelRequests()).toHaveLength(1);

    scenario.model.enqueue({ text: 'second answer', usage: { input: 10, output: 10 } });
    const client = scenario.client({ userId: 1001 });
    await client.sendCallback(client.makeCallbackQuery(buttonData(card, /Continue/), { message: { message_id: card.messageId } }));
    await scenario.waitForBotMessage((message) => message.messageId === card.messageId && message.text.includes('Continued for today by @user1001'), 'the card edited into its outcome');
    await scenario.waitForBotMessage((message) => message.text === 'second answer', 'the held message answered');
    expect(scenario.model.requests.at(-1)?.body?.messages?.at(-1)).toMatchObject({ role: 'user', content: 'second' });

    scenario.model.enqueue({ text: 'third answer' });
    await client.sendMessage(client.makeMessage('third'));
    await scenario.waitForBotMessage((message) => message.text === 'third answer', 'the third answer, with no second card');
    expect(scenario.botMessages().filter((message) => (message.keyboard?.length ?? 0) > 0 || message.text.includes('Continue?'))).toHaveLength(1);

    const approvalId = /<code>([a-z0-9]+)<\/code>/.exec(card.text)?.[1] ?? '';
    const approval = await scenario.testApp.app.store.namespace<PendingApproval>('approvals').get(approvalId);
    expect(approval).toMatchObject({ toolName: 'budget', status: 'approved', scope: 'once', budgetPeriod: 'daily' });
  });

  it('Stop pauses the chat until the budget resets: the held message and later ones are answered with one sentence, the model is not asked', async () => {
    scenario = await startTelegramScenario({ allowFrom: '1001', yaml });
    const card = await crossSoftLimit(scenario);
    const client = scenario.client({ userId: 1001 });
    await client.sendCallback(client.makeCallbackQuery(buttonData(card, /Stop/), { message: { message_id: card.messageId } }));
    await scenario.waitForBotMessage((message) => message.messageId === card.messageId && message.text.includes('Stopped until tomorrow by @user1001'), 'the card edited into its outcome');
    const paused = await scenario.waitForBotMessage((message) => message.text.startsWith('This chat is paused until'), 'the paused sentence');
    expect(paused.text).toMatch(/resets \d{4}-\d{2}-\d{2} 00:00 \(UTC\), as decided on the budget card\.$/);

    await client.sendMessage(client.makeMessage('are you there?'));
    await scenario.waitForBotMessage((message) => message.text.startsWith('This chat is paused') && message.messageId !== paused.messageId, 'the second paused sentence');
    expect(scenario.modelRequests()).toHaveLength(1);
  });
});
