// Fault: SIGKILL of the real agent process while the model writes a compaction summary (memory.enabled, a small
// history budget; the scripted model holds the first summary request open on a gate), then a restart over the same
// SQLite file and more messages.
// Proves: no message of the conversation is lost (each is in the history or in the one summary at its head) and
// none is summarised twice; the span is the same one after the restart; no compaction cursor is left behind.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SessionRecord } from '../../src/agent/session-history.js';
import type { CompactionCursor } from '../../src/memory/compaction-cursor.js';
import { compactionPrompt } from '../../src/memory/compaction-prompt.js';
import { isCompactionSummary, summaryTextOf } from '../../src/memory/compaction-summary.js';
import { createStore } from '../../src/store/create-store.js';
import type { RecordedRequest, ScriptedRequestBody } from '../fakes/scripted-model-server.js';
import { ensureBuilt } from '../fakes/run-compiled.js';
import { createGate } from '../fakes/webhook-client.js';
import { type AgentUnderFault, createAgentUnderFault } from './agent-under-fault.js';

const isCompaction = (body: ScriptedRequestBody | undefined) => body?.messages?.[0]?.content === compactionPrompt;
const transcriptOf = (request: RecordedRequest | undefined) => String(request?.body?.messages?.[1]?.content ?? '');
/** A fact line as sent: numbered, long enough that a few of them pass the 1000-character budget. */
const factText = (index: number) => `fact ${index}: my item number ${index} is ${'x'.repeat(160)}`;

describe('SIGKILL in the middle of a compaction', () => {
  let world: AgentUnderFault | undefined;
  const gate = createGate();
  beforeAll(() => ensureBuilt(), 120_000);
  afterEach(async () => {
    gate.open();
    await world?.close();
    world = undefined;
  });

  it('loses no message and summarises none twice after the restart', async () => {
    world = await createAgentUnderFault({ yaml: 'agent:\n  historyBudgetChars: 1000\nmemory:\n  enabled: true\n' });
    const current = world;
    const held = createGate();
    let holding = false;
    let summaries = 0;
    current.model.setFallback(async (body, context) => {
      if (!isCompaction(body)) return { text: `answer: ${context.lastUserText.slice(0, 7)}` };
      summaries += 1;
      if (summaries === 1) {
        holding = true;
        held.open();
        await gate.opened;
      }
      // The summariser keeps each person's line whole (and the earlier summary), so the test can count them.
      const transcript = String(body.messages?.[1]?.content ?? '');
      const lines = transcript.split('\n').filter((line) => line.startsWith('Person: ') || line.startsWith('fact '));
      return { text: lines.map((line) => line.replace(/^Person: /, '')).join('\n') };
    });

    await current.start();
    let sent = 0;
    const say = async () => {
      const text = factText(sent);
      sent += 1;
      await current.send(text);
      await current.waitForBotMessage((message) => message.text === `answer: ${text.slice(0, 7)}`, `the answer to ${text.slice(0, 7)}`);
    };
    // Exactly enough messages to pass the 1000-character budget (each exchange: the text and its answer); the
    // compaction after the last answer hangs on the gate. A message more would wait behind it in the session's lane.
    let historyChars = 0;
    while (historyChars <= 1000) {
      historyChars += factText(sent).length + `answer: ${factText(sent).slice(0, 7)}`.length;
      await say();
    }
    await held.opened;
    expect(holding).toBe(true);
    await current.kill();

    await current.start();
    // The next turns compact again: the pending span first.
    for (let index = 0; index < 3; index += 1) await say();
    await current.stop();

    const compactions = current.modelRequests().filter((request) => isCompaction(request.body));
    expect(compactions.length).toBeGreaterThanOrEqual(2);
    // The span chosen before the kill is the one summarised after it.
    expect(transcriptOf(compactions[1])).toBe(transcriptOf(compactions[0]));

    const store = await createStore({ dataDir: current.dataDir });
    try {
      const sessions = await store.namespace<SessionRecord>('sessions').entries();
      expect(sessions).toHaveLength(1);
      const messages = sessions[0]?.[1].messages ?? [];
      expect(isCompactionSummary(messages[0])).toBe(true);
      expect(messages.filter((message) => isCompactionSummary(message))).toHaveLength(1);
      const summary = summaryTextOf(messages[0]) ?? '';
      for (let index = 0; index < sent; index += 1) {
        const text = factText(index);
        const inHistory = messages.filter((message) => message.role === 'user' && message.content === text).length;
        const inSummary = summary.split('\n').filter((line) => line === text).length;
        expect({ index, kept: inHistory + inSummary }).toEqual({ index, kept: 1 });
      }
      expect(await store.namespace<CompactionCursor>('compaction-cursors').entries()).toEqual([]);
    } finally {
      await store.close();
    }
  }, 120_000);
});
