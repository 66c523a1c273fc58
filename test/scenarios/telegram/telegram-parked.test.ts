// Parked turns in the running app: a journal row that already had two interrupted starts (as a process that died
// twice leaves it) is parked by the next sweep, its chat is told once, /healthz counts it, and `/parked` lets an
// approver, and nobody else, list, show, retry and drop parked turns.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessageReceived } from '../../../src/events/inbound-event.js';
import { createInboundJournal, type JournalEntry } from '../../../src/journal/inbound-journal.js';
import { parkedTurnIdOf } from '../../../src/journal/parked-turns.js';
import { waitFor } from '../../fakes/start-test-app.js';
import { gatewayOf } from '../../fakes/webhook-client.js';
import { startTelegramScenario, type TelegramScenario } from '../../fakes/telegram-scenario.js';

const approver = 1001;
const person = 1002;
const setAside = 'I could not process your last message; it has been set aside.';

let scenario: TelegramScenario;
beforeAll(async () => {
  scenario = await startTelegramScenario({ allowFrom: `${approver},${person}`, approvers: String(approver), sweepEveryMs: 150 });
});
afterAll(async () => {
  await scenario.stop();
});

function interrupted(id: string, text: string): MessageReceived {
  return {
    type: 'message-received',
    id,
    traceId: `trace-${id}`,
    at: new Date().toISOString(),
    channel: 'telegram',
    chatId: String(person),
    sessionKey: `telegram:${person}`,
    origin: 'user',
    unattended: false,
    messageId: '1',
    sender: { id: String(person), displayName: '@user1002' },
    text,
    media: [],
    isGroup: false,
    mentioned: false,
  };
}

/** Leaves a row as a process that started it twice and died both times would: the next sweep parks it. */
async function leaveInterruptedTwice(event: MessageReceived): Promise<void> {
  await createInboundJournal(scenario.testApp.app.store.namespace<JournalEntry>('inbound-journal')).record(event, 2);
}

async function command(text: string, userId: number): Promise<string> {
  const before = scenario.botMessages(userId).length;
  const client = scenario.client({ userId });
  await client.sendMessage(client.makeMessage(text));
  const answer = await waitFor(() => scenario.botMessages(userId)[before], `the answer to ${text}`);
  return answer.text;
}

describe('parked turns', () => {
  it('parks a turn interrupted twice, tells its chat once, and counts it in /healthz', async () => {
    const requestsBefore = scenario.modelRequests().length;
    await leaveInterruptedTwice(interrupted('poison-1', 'summarise the attached report'));
    await scenario.waitForBotMessage((message) => message.chatId === String(person) && message.text === setAside, 'the set-aside sentence');
    // Several sweeps later the sentence has still been said once, and the model never saw the message.
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(scenario.botMessages(person).filter((message) => message.text === setAside)).toHaveLength(1);
    expect(scenario.modelRequests()).toHaveLength(requestsBefore);
    expect(await scenario.testApp.app.store.namespace('inbound-journal').entries()).toEqual([]);

    const health = (await (await fetch(`${gatewayOf(scenario.testApp.app).baseUrl}/healthz`)).json()) as { parked?: unknown };
    expect(health.parked).toMatchObject({ count: 1, newest: { id: parkedTurnIdOf('poison-1'), sessionKey: `telegram:${person}`, attempts: 2 } });
  });

  it('refuses /parked to a person who is not an approver', async () => {
    expect(await command('/parked', person)).toBe('Only approvers can see and handle parked turns.');
    expect(await command(`/parked drop ${parkedTurnIdOf('poison-1')}`, person)).toBe('Only approvers can see and handle parked turns.');
    expect(await scenario.testApp.app.store.namespace('parked-turns').get(parkedTurnIdOf('poison-1'))).toBeDefined();
  });

  it('lets an approver list, show and retry it: the retried message is answered in its chat', async () => {
    const id = parkedTurnIdOf('poison-1');
    const list = await command('/parked', approver);
    expect(list).toContain('Parked turns (1)');
    expect(list).toContain(`${id} — telegram:${person}, @user1002`);
    expect(list).toContain('"summarise the attached report"');
    const shown = await command(`/parked show ${id}`, approver);
    expect(shown).toContain('Why: started 2 time(s) and never finished');

    scenario.model.enqueue({ text: 'Here is the summary.' });
    expect(await command(`/parked retry ${id}`, approver)).toBe(`Parked turn ${id} is queued to run again. If it is interrupted twice more, it is parked again.`);
    await scenario.waitForBotMessage((message) => message.chatId === String(person) && message.text === 'Here is the summary.', 'the retried message answered');
    expect(scenario.modelRequests().at(-1)?.body?.messages?.at(-1)).toMatchObject({ role: 'user', content: 'summarise the attached report' });
    expect(await command('/parked', approver)).toBe('No turns are parked.');
  });

  it('lets an approver drop one, and says when there is no such turn', async () => {
    await leaveInterruptedTwice(interrupted('poison-2', 'another one'));
    const id = parkedTurnIdOf('poison-2');
    await scenario.waitForBotMessage((message) => message.chatId === String(person) && scenario.botMessages(person).filter((said) => said.text === setAside).length === 2, 'the second set-aside sentence');
    expect(await command(`/parked drop ${id}`, approver)).toBe(`Parked turn ${id} was dropped.`);
    expect(await command(`/parked drop ${id}`, approver)).toBe(`There is no parked turn ${id}. /parked lists them.`);
    expect(await command('/parked retry', approver)).toMatch(/^Usage: \/parked \(list\) · \/parked show /);
  });
});
