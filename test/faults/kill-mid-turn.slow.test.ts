// Fault: SIGKILL of the real agent process while the model is answering a Telegram message (the scripted
// model holds the first request open on a gate), then a restart over the same SQLite file.
// Proves: the message is not lost (the inbound journal re-runs it, so the model sees it again) and is
// answered exactly once; the journal is empty afterwards, so no later restart answers it again.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../src/journal/inbound-journal.js';
import { createStore } from '../../src/store/create-store.js';
import { ensureBuilt } from '../fakes/run-compiled.js';
import { waitFor } from '../fakes/start-test-app.js';
import { createGate } from '../fakes/webhook-client.js';
import { type AgentUnderFault, createAgentUnderFault, patientMs } from './agent-under-fault.js';

describe('SIGKILL in the middle of a turn', () => {
  let world: AgentUnderFault | undefined;
  const gate = createGate();
  beforeAll(() => ensureBuilt(), 120_000);
  afterEach(async () => {
    gate.open();
    await world?.close();
    world = undefined;
  });

  it('answers the message exactly once after the restart, and the model saw it again', async () => {
    world = await createAgentUnderFault();
    const current = world;
    const question = 'What is the capital of France?';
    const held = createGate();
    current.model.enqueue(async () => {
      held.open();
      await gate.opened;
      return { text: 'an answer from the killed process' };
    });
    current.model.setFallback((_body, context) => ({ text: `answer: ${context.lastUserText}` }));

    await current.start();
    await current.send(question);
    await held.opened;
    await current.kill();

    await current.start();
    await current.waitForBotMessage((message) => message.text === `answer: ${question}`, 'the answer after the restart');
    // A later message is answered after it in the same lane: anything still queued for the first would have run by then.
    await current.send('and now?');
    await current.waitForBotMessage((message) => message.text === 'answer: and now?', 'the answer to the next message');
    await current.stop();

    const answers = current.botMessages().filter((message) => message.text.startsWith('answer: What is the capital'));
    expect(answers).toHaveLength(1);
    expect(current.botMessages().some((message) => message.text.includes('killed process'))).toBe(false);
    const sawQuestion = current.modelRequests().filter((request) => request.body?.messages?.at(-1)?.content === question);
    expect(sawQuestion).toHaveLength(2);

    // Nothing is left to run on the next start.
    const store = await createStore({ dataDir: current.dataDir });
    try {
      const unfinished = await waitFor(async () => store.namespace<JournalEntry>('inbound-journal').entries(), 'the journal', patientMs);
      expect(unfinished).toEqual([]);
    } finally {
      await store.close();
    }
  }, 90_000);
});
