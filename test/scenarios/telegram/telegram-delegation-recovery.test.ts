// Recovery of the one window the journal cannot cover by itself: the process died after saving a parent turn's
// suspension on a sub-task and before journaling the sub-task. The state is written as that process would leave
// it (the parent's message still in the journal, its suspension and history saved, no sub-task row); the next
// sweep runs the parent's event again, which queues the sub-task, and the parent answers once with its result.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionRecord } from '../../../src/agent/session-history.js';
import type { SuspendedDelegation, SuspendedTurn } from '../../../src/approvals/suspended-turn.js';
import type { MessageReceived } from '../../../src/events/inbound-event.js';
import { createInboundJournal, type JournalEntry } from '../../../src/journal/inbound-journal.js';
import { waitFor } from '../../fakes/start-test-app.js';
import { startTelegramScenario, type TelegramScenario } from '../../fakes/telegram-scenario.js';

const person = 1001;
const sessionKey = `telegram:${person}`;

let scenario: TelegramScenario;
beforeAll(async () => {
  scenario = await startTelegramScenario({ allowFrom: String(person), yaml: 'tools:\n  alsoAllow: [delegate]\napprovals:\n  explain: false\n', sweepEveryMs: 150 });
});
afterAll(async () => {
  await scenario.stop();
});

describe('a parent interrupted before its sub-task was journaled', () => {
  it('queues the sub-task when the parent\'s event runs again; the sub-task runs once and the parent answers once', async () => {
    const eventId = 'parent-message-1';
    const call = { id: 'call-delegate-1', name: 'delegate', argumentsText: JSON.stringify({ name: 'summary', instructions: 'Summarise the notes.', tools: [] }) };
    const event: MessageReceived = {
      type: 'message-received',
      id: eventId,
      traceId: 'trace-parent-1',
      at: new Date().toISOString(),
      channel: 'telegram',
      chatId: String(person),
      sessionKey,
      origin: 'user',
      unattended: false,
      messageId: '1',
      sender: { id: String(person), displayName: '@user1001' },
      text: 'summarise my notes',
      media: [],
      isGroup: false,
      mentioned: false,
    };
    const parent: SuspendedDelegation = {
      kind: 'delegation',
      id: 'parentwait1',
      sessionKey,
      traceId: event.traceId,
      target: { channel: 'telegram', chatId: String(person), replyToMessageId: '1' },
      origin: 'user',
      unattended: false,
      isGroup: false,
      userId: String(person),
      userName: '@user1001',
      causationId: eventId,
      createdAt: new Date().toISOString(),
      call,
      remainingCalls: [],
      subTasks: [
        {
          id: 'sub1',
          callId: call.id,
          name: 'summary',
          instructions: 'Summarise the notes.',
          allowedTools: [],
          slice: { tokens: 10_000, modelCalls: 3, seconds: 60 },
          chain: [{ name: 'summary', parentExecutionId: 'exec-1', agentId: 'echo-agent' }],
          sessionKey: `${sessionKey}/sub:summary:sub1`,
        },
      ],
    };
    const { store } = scenario.testApp.app;
    await store.namespace<SuspendedTurn>('suspended-turns').set(parent.id, parent);
    await store.namespace<SessionRecord>('sessions').set(sessionKey, {
      messages: [
        { role: 'user', content: event.text },
        { role: 'assistant', content: '', toolCalls: [call] },
        { role: 'tool', toolCallId: call.id, toolName: 'delegate', content: 'Waiting for sub-task summary (parentwait1); it has not answered yet.' },
      ],
      updatedAt: new Date().toISOString(),
    });
    scenario.model.enqueue({ text: 'three notes, all about tests' }, (body) => ({ text: `parent answer: ${String(body.messages?.filter((message) => message.role === 'tool').at(-1)?.content ?? '')}` }));
    await createInboundJournal(store.namespace<JournalEntry>('inbound-journal')).record(event, 1);

    const answer = await scenario.waitForBotMessage((message) => message.text.startsWith('parent answer:'), 'the parent answer');
    expect(answer.text).toContain('Sub-task summary answered:\nthree notes, all about tests');
    // The sub-task's model call and the parent's: nothing ran twice.
    expect(scenario.modelRequests()).toHaveLength(2);
    expect(scenario.modelRequests()[0]?.body?.messages?.at(-1)).toMatchObject({ role: 'user', content: expect.stringContaining('Summarise the notes.') });
    // Settled: the parent's suspension and every journal row (the parent's event, the sub-task's) are gone.
    await waitFor(async () => (await store.namespace('suspended-turns').get(parent.id)) === undefined && (await store.namespace('inbound-journal').entries()).length === 0, 'the delegation settled');
    expect(scenario.botMessages().filter((message) => message.text.startsWith('parent answer:'))).toHaveLength(1);
    expect(scenario.modelRequests()).toHaveLength(2);
  });
});
