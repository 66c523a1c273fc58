import type { ServerResponse } from 'node:http';
import type { ScriptedStep } from './scripted-step.js';
import type { ScriptedReply } from './to-scripted-reply.js';
import { retryAfterHeader, writeJson } from './write-json.js';

const stopReasons = { stop: 'end_turn', length: 'max_tokens', 'tool-calls': 'tool_use' } as const;

/** Writes an Anthropic Messages API response (non-streaming). */
export function writeAnthropicReply(
  response: ServerResponse,
  reply: ScriptedReply,
  options: { readonly model: string; readonly id: string },
): void {
  const content: unknown[] = [];
  if (reply.text !== '') content.push({ type: 'text', text: reply.text });
  for (const call of reply.toolCalls) {
    content.push({ type: 'tool_use', id: call.id, name: call.name, input: parseInput(call.argumentsText) });
  }
  writeJson(response, 200, {
    id: options.id,
    type: 'message',
    role: 'assistant',
    model: options.model,
    content,
    stop_reason: stopReasons[reply.finishReason],
    stop_sequence: null,
    usage: { input_tokens: reply.usage.input, output_tokens: reply.usage.output, ...(reply.usage.cachedInput === undefined ? {} : { cache_read_input_tokens: reply.usage.cachedInput }) },
  });
}

/** Writes an Anthropic-shaped error body with the step's status and Retry-After header. */
export function writeAnthropicError(response: ServerResponse, step: ScriptedStep & { readonly status: number }): void {
  writeJson(
    response,
    step.status,
    { type: 'error', error: { type: errorType(step.status), message: step.errorMessage ?? `scripted ${step.status}` } },
    retryAfterHeader(step),
  );
}

function errorType(status: number): string {
  if (status === 429) return 'rate_limit_error';
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 529) return 'overloaded_error';
  if (status >= 500) return 'api_error';
  return 'invalid_request_error';
}

// The Messages API always answers an object; scripted raw text that is not one is wrapped so it survives.
function parseInput(argumentsText: string): unknown {
  try {
    const parsed: unknown = JSON.parse(argumentsText);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed;
  } catch {
    // fall through
  }
  return { raw: argumentsText };
}
