import type { ServerResponse } from 'node:http';
import type { ScriptedStep } from './scripted-step.js';
import { splitIntoPieces } from './split-into-pieces.js';
import type { ScriptedReply } from './to-scripted-reply.js';
import { retryAfterHeader, writeJson } from './write-json.js';

const finishReasons = { stop: 'stop', length: 'length', 'tool-calls': 'tool_calls' } as const;

/** Writes a chat completion as one JSON body, or as realistic SSE chunks when `stream` is true. */
export async function writeOpenAiReply(
  response: ServerResponse,
  reply: ScriptedReply,
  options: { readonly model: string; readonly stream: boolean; readonly id: string; readonly includeUsage?: boolean },
): Promise<void> {
  const created = Math.floor(Date.now() / 1000);
  const base = { id: options.id, created, model: options.model };
  const cached = reply.usage.cachedInput ?? 0;
  const promptTokens = reply.usage.input + cached;
  const usage = {
    prompt_tokens: promptTokens,
    completion_tokens: reply.usage.output,
    total_tokens: promptTokens + reply.usage.output,
    ...(cached > 0 ? { prompt_tokens_details: { cached_tokens: cached } } : {}),
  };
  if (!options.stream) {
    const toolCalls = reply.toolCalls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.argumentsText },
    }));
    const message = {
      role: 'assistant',
      content: reply.text === '' && toolCalls.length > 0 ? null : reply.text,
      refusal: null,
      ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
    };
    const body = {
      ...base,
      object: 'chat.completion',
      choices: [{ index: 0, message, logprobs: null, finish_reason: finishReasons[reply.finishReason] }],
      usage,
    };
    writeJson(response, 200, body);
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) => ({
    ...base,
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  });
  const events: unknown[] = [chunk({ role: 'assistant', content: '', refusal: null })];
  for (const piece of splitIntoPieces(reply.text, 3)) events.push(chunk({ content: piece }));
  reply.toolCalls.forEach((call, index) => {
    events.push(
      chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }),
    );
    for (const piece of splitIntoPieces(call.argumentsText, 4)) {
      events.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  events.push(chunk({}, finishReasons[reply.finishReason]));
  // As OpenAI does with stream_options.include_usage: one last chunk with the usage and no choices.
  if (options.includeUsage === true) events.push({ ...base, object: 'chat.completion.chunk', choices: [], usage });
  for (const event of events) {
    if (response.destroyed) return;
    response.write(`data: ${JSON.stringify(event)}\n\n`);
    // Yield between chunks so they can reach the client in separate reads.
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (!response.destroyed) response.end('data: [DONE]\n\n');
}

/** Writes an OpenAI-shaped error body with the step's status and Retry-After header. */
export function writeOpenAiError(response: ServerResponse, step: ScriptedStep & { readonly status: number }): void {
  const type = step.status === 429 ? 'rate_limit_exceeded' : step.status >= 500 ? 'server_error' : 'invalid_request_error';
  const message = step.errorMessage ?? `scripted ${step.status}`;
  writeJson(response, step.status, { error: { message, type, param: null, code: null } }, retryAfterHeader(step));
}
