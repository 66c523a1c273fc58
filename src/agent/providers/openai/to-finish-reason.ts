import type { ModelAnswer } from '../../../model/model-port.js';

/** Maps an OpenAI `finish_reason`; tool calls win even when a server reports `stop` beside them. */
export function toFinishReason(reason: string | null | undefined, hasToolCalls: boolean): ModelAnswer['finishReason'] {
  if (hasToolCalls) return 'tool-calls';
  if (reason === 'stop') return 'stop';
  if (reason === 'length') return 'length';
  if (reason === 'tool_calls' || reason === 'function_call') return 'tool-calls';
  return 'other';
}
