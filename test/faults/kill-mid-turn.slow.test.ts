// Fault: SIGKILL of the real agent process while the model is answering a Telegram message (the scripted
// model holds the first request open on a gate), then a restart over the same SQLite file.
// Proves: the message is not lost (the inbound journal re-runs it, so the model sees it again) and is
// answered exactly once; the journal is empty afterwards, so no later restart answers it again. And when the
// killed turn had already done a side effect (a `message` tool call posted a note), the re-run does not do it again.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../src/journal/inbound-journal.js';
import { createStore } from '../../src/store/create-store.js';
import { ensureBuilt } from '../fakes/run-compiled.js';
import { waitFor } from '../fakes/start-test-app.js';
import { createGate } from '../fakes/webhook-client.js';
import { type AgentUnderFault, createAgentUnderFault, patientMs, readRequest } from './agent-under-fault.js';

describe('SIGKILL in the middle of a turn', () => {
  let world: AgentUnderFault | undefined;
  // Holds a model call open until the test ends (the process is killed meanwhile); one per test.
  let gate = createGate();
  beforeAll(() => ensureBuilt(), 120_000);
  beforeEach(() => {
    gate = createGate();
  });
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

  it('does not repeat a side effect the killed turn had already done', async () => {
    world = await createAgentUnderFault();
    const current = world;
    const note = { name: 'message', arguments: { text: 'Working on it: one note, posted once.' } };
    const held = createGate();
    // First run: post the note, then hang on the next model call until the process is killed.
    current.model.enqueue({ toolCalls: [note] }, async () => {
      held.open();
      await gate.opened;
      return { text: 'an answer from the killed process' };
    });
    // The re-run after the restart: the model asks for the same note again, then answers.
    current.model.enqueue({ toolCalls: [note] });
    current.model.setFallback((_body, context) => ({ text: `answer: ${context.lastUserText}` }));

    await current.start();
    await current.send('do the long thing');
    await current.waitForBotMessage((message) => message.text === note.arguments.text, 'the note from the first run');
    await held.opened;
    await current.kill();

    await current.start();
    await current.waitForBotMessage((message) => message.text === 'answer: do the long thing', 'the answer after the restart');
    await current.stop();

    expect(current.botMessages().filter((message) => message.text === note.arguments.text)).toHaveLength(1);
    expect(current.botMessages().some((message) => message.text.includes('killed process'))).toBe(false);
    const rerun = current.modelRequests().at(-1);
    const { toolResults } = readRequest(rerun);
    expect(toolResults).toHaveLength(1);
  }, 90_000);
});
