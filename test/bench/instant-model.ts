import type { ModelPort, ModelRequest, ModelResult } from '../../src/model/model-port.js';

/**
 * An in-process model that answers at once and makes exactly one tool call per turn: `todo add`
 * with the user's text, then, once it sees the tool's result, a final answer. So every turn runs the
 * loop twice, the registry once, and writes the store; the model itself costs nothing. Each answer
 * reports usage, so the accounting of every call (counters per chat, user, model, day and month) is measured too.
 * With memory on it also answers memory's side calls (no tools offered): one fact per message, a short summary.
 */
const usage = { inputTokens: 120, cachedInputTokens: 30, outputTokens: 12 };

export function createInstantModel(): ModelPort {
  let callCount = 0;
  return {
    name: 'instant-bench-model',
    async complete(request: ModelRequest): Promise<ModelResult> {
      const last = request.messages.at(-1);
      // Memory's side calls offer no tools: a fact extraction gets one fact about the message, a compaction a summary.
      if (request.tools.length === 0) {
        const asksForFacts = String(request.messages[0]?.content ?? '').includes('"facts"');
        const text = asksForFacts ? JSON.stringify({ facts: [{ subject: `note ${callCount % 50}`, statement: `They said: ${String(last?.content ?? '').slice(-80)}`, about: 'speaker' }] }) : 'Summary: the person added notes.';
        return { ok: true, answer: { text, toolCalls: [], finishReason: 'stop', usage } };
      }
      if (last?.role === 'tool') {
        return { ok: true, answer: { text: `Noted. ${last.content}`, toolCalls: [], finishReason: 'stop', usage } };
      }
      callCount += 1;
      const text = last?.role === 'user' ? last.content : 'step';
      return {
        ok: true,
        answer: {
          text: '',
          toolCalls: [{ id: `call-${callCount}`, name: 'todo', argumentsText: JSON.stringify({ action: 'add', text }) }],
          finishReason: 'tool-calls',
          usage,
        },
      };
    },
  };
}
