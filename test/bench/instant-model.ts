import type { ModelPort, ModelRequest, ModelResult } from '../../src/model/model-port.js';

/**
 * An in-process model that answers at once and makes exactly one tool call per turn: `todo add`
 * with the user's text, then, once it sees the tool's result, a final answer. So every turn runs the
 * loop twice, the registry once, and writes the store; the model itself costs nothing. Each answer
 * reports usage, so the accounting of every call (counters per chat, user, model, day and month) is measured too.
 */
const usage = { inputTokens: 120, cachedInputTokens: 30, outputTokens: 12 };

export function createInstantModel(): ModelPort {
  let callCount = 0;
  return {
    name: 'instant-bench-model',
    async complete(request: ModelRequest): Promise<ModelResult> {
      const last = request.messages.at(-1);
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
