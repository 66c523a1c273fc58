import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { PendingApproval } from '../../../src/approvals/pending-approval.js';
import { defineTool } from '../../../src/registry/define-tool.js';
import { waitFor } from '../../fakes/start-test-app.js';
import type { EmulatedBotMessage } from '../../fakes/telegram-emulator.js';
import { startTelegramScenario, type TelegramScenario } from '../../fakes/telegram-scenario.js';

const noExplanation = 'approvals:\n  explain: false\n';
const reminder = { name: 'schedule_task', arguments: { schedule: '0 9 * * *', prompt: 'Water the plants' } };

function buttonData(card: EmulatedBotMessage, label: RegExp): string {
  const button = card.keyboard?.flat().find((candidate) => label.test(candidate.text));
  if (!button) throw new Error(`no button ${label} on the card: ${JSON.stringify(card.keyboard)}`);
  return button.callback_data;
}

function toolResultsIn(scenario: TelegramScenario): string[] {
  const last = scenario.modelRequests().at(-1);
  return (last?.body?.messages ?? []).filter((message) => message.role === 'tool').map((message) => String(message.content));
}

describe('telegram approval cards', () => {
  let scenario: TelegramScenario | undefined;
  afterEach(async () => {
    await scenario?.stop();
    scenario = undefined;
  });

  async function askForReminder(current: TelegramScenario, userId: number): Promise<EmulatedBotMessage> {
    current.model.enqueue({ toolCalls: [reminder] });
    const client = current.client({ userId });
    await client.sendMessage(client.makeMessage('remind me to water the plants every morning'));
    return current.waitForBotMessage((message) => (message.keyboard?.length ?? 0) > 0, 'the approval card');
  }

  it('shows a card with Approve, Always, session and Deny buttons; pressing Approve edits it into its outcome and resumes the turn', async () => {
    scenario = await startTelegramScenario({ allowFrom: '1001', yaml: noExplanation });
    const card = await askForReminder(scenario, 1001);
    expect(card.text).toContain('schedule_task');
    expect(card.text).toContain('Water the plants');
    expect(card.parseMode).toBe('HTML');
    expect(card.keyboard?.flat().map((button) => button.text)).toEqual(['✅ Approve', 'Always', 'Allow for this chat', '❌ Deny']);
    for (const button of card.keyboard?.flat() ?? []) expect(Buffer.byteLength(button.callback_data)).toBeLessThanOrEqual(64);

    scenario.model.enqueue({ text: 'Your reminder is set.' });
    const client = scenario.client({ userId: 1001 });
    await client.sendCallback(client.makeCallbackQuery(buttonData(card, /Approve/), { message: { message_id: card.messageId } }));

    const edited = await scenario.waitForBotMessage((message) => message.messageId === card.messageId && message.text.includes('Approved by @user1001'), 'the card edited into its outcome');
    expect(edited.keyboard).toEqual([]);
    expect(edited.text).toContain('Water the plants');
    await scenario.waitForBotMessage((message) => message.text === 'Your reminder is set.', 'the resumed answer');
    const results = toolResultsIn(scenario);
    expect(results).toHaveLength(1);
    expect(results[0]).not.toMatch(/Waiting for a person|Not run/);
    const acknowledgement = scenario.proxy.callsOf('answerCallbackQuery').at(-1);
    expect(acknowledgement?.body).toMatchObject({ show_alert: false, text: expect.stringContaining('Approved by @user1001') });
  });

  it('pressing Deny edits the card and tells the model the action was refused', async () => {
    scenario = await startTelegramScenario({ allowFrom: '1001', yaml: noExplanation });
    const card = await askForReminder(scenario, 1001);
    scenario.model.enqueue({ text: 'Understood, no reminder.' });
    const client = scenario.client({ userId: 1001 });
    await client.sendCallback(client.makeCallbackQuery(buttonData(card, /Deny/), { message: { message_id: card.messageId } }));
    const edited = await scenario.waitForBotMessage((message) => message.messageId === card.messageId && message.text.includes('Denied by @user1001'), 'the denied card');
    expect(edited.keyboard).toEqual([]);
    await scenario.waitForBotMessage((message) => message.text === 'Understood, no reminder.', 'the answer after the denial');
    expect(toolResultsIn(scenario)[0]).toContain('Not run: @user1001 denied');
  });

  it('answers a non-approver press with an alert and decides nothing; a stranger press never reaches the runtime', async () => {
    scenario = await startTelegramScenario({ allowFrom: '1001,3003', approvers: '1001', yaml: noExplanation });
    const card = await askForReminder(scenario, 1001);
    const approvalId = /<code>([a-z0-9]+)<\/code>/.exec(card.text)?.[1] ?? '';
    const data = buttonData(card, /Approve/);

    const member = scenario.client({ userId: 3003, chatId: 1001 });
    await member.sendCallback(member.makeCallbackQuery(data, { message: { message_id: card.messageId } }));
    const refused = await waitFor(() => scenario?.proxy.callsOf('answerCallbackQuery').find((call) => call.body.show_alert === true), 'the alert to the non-approver');
    expect(refused.body.text).toBe('Only approvers can decide this.');

    const stranger = scenario.client({ userId: 9009, chatId: 1001 });
    await stranger.sendCallback(stranger.makeCallbackQuery(data, { message: { message_id: card.messageId } }));
    await waitFor(() => (scenario?.proxy.callsOf('answerCallbackQuery').filter((call) => call.body.show_alert === true).length ?? 0) >= 2, 'the alert to the stranger');

    const approval = await scenario.testApp.app.store.namespace<PendingApproval>('approvals').get(approvalId);
    expect(approval?.status).toBe('pending');
    expect(scenario.botMessages().find((message) => message.messageId === card.messageId)?.keyboard?.length).toBeGreaterThan(0);
    expect(scenario.modelRequests()).toHaveLength(1);
  });

  it('with approvals.route approvers, sends the card to the approver\'s private chat, where their press decides it', async () => {
    scenario = await startTelegramScenario({ allowFrom: '1001', approvers: '2002', yaml: `${noExplanation}  route: approvers\n` });
    scenario.model.enqueue({ toolCalls: [reminder] });
    const requester = scenario.client({ userId: 1001 });
    await requester.sendMessage(requester.makeMessage('remind me to water the plants'));
    const card = await scenario.waitForBotMessage((message) => (message.keyboard?.length ?? 0) > 0, 'the approval card');
    expect(card.chatId).toBe('2002');
    expect(scenario.botMessages(1001)).toHaveLength(0);

    scenario.model.enqueue({ text: 'Approved and scheduled.' });
    // The approver is not in TELEGRAM_ALLOW_FROM: their presses still reach the runtime, their messages would not.
    const approver = scenario.client({ userId: 2002 });
    await approver.sendCallback(approver.makeCallbackQuery(buttonData(card, /Approve/), { message: { message_id: card.messageId } }));
    await scenario.waitForBotMessage((message) => message.messageId === card.messageId && message.text.includes('Approved by @user2002'), 'the card edited in the approver chat');
    const answer = await scenario.waitForBotMessage((message) => message.text === 'Approved and scheduled.', 'the answer in the requester chat');
    expect(answer.chatId).toBe('1001');
  });

  it('answers a typed /approve from another chat with the outcome, and edits the card where it was shown', async () => {
    scenario = await startTelegramScenario({ allowFrom: '1001', approvers: '2002', yaml: noExplanation });
    scenario.model.enqueue({ toolCalls: [reminder] });
    const requester = scenario.client({ userId: 1001 });
    await requester.sendMessage(requester.makeMessage('remind me to water the plants'));
    const card = await scenario.waitForBotMessage((message) => (message.keyboard?.length ?? 0) > 0, 'the approval card');
    const approvalId = /([a-z2-9]{12})/.exec(card.text)?.[1];
    expect(approvalId).toBeDefined();

    scenario.model.enqueue({ text: 'Approved and scheduled.' });
    const approver = scenario.client({ userId: 2002 });
    await approver.sendMessage(approver.makeMessage(`/approve ${approvalId}`));
    const outcome = await scenario.waitForBotMessage((message) => message.chatId === '2002' && message.text.startsWith('Approved by'), 'the outcome in the approver chat');
    expect(outcome.text).toMatch(/Approved by @user2002 at \d\d:\d\d/);
    await scenario.waitForBotMessage((message) => message.messageId === card.messageId && message.text.includes('Approved by @user2002'), 'the card edited');
  });

  it('offers no Always button for a dangerous action', async () => {
    const wipeTool = defineTool({
      name: 'wipe_cache',
      description: 'Deletes the cache folder.',
      input: z.object({ folder: z.string() }),
      risk: 'dangerous',
      execute: async () => ({ ok: true, output: 'wiped' }),
    });
    scenario = await startTelegramScenario({ allowFrom: '1001', yaml: `${noExplanation}tools:\n  alsoAllow: wipe_cache\n`, extraTools: [wipeTool] });
    scenario.model.enqueue({ toolCalls: [{ name: 'wipe_cache', arguments: { folder: '/var/cache/app' } }] });
    const client = scenario.client({ userId: 1001 });
    await client.sendMessage(client.makeMessage('clear the cache'));
    const card = await scenario.waitForBotMessage((message) => (message.keyboard?.length ?? 0) > 0, 'the approval card');
    expect(card.text).toContain('dangerous');
    expect(card.keyboard?.flat().map((button) => button.text)).toEqual(['✅ Approve', 'Allow for this chat', '❌ Deny']);
  });
});
