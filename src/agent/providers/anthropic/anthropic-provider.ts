import Anthropic from '@anthropic-ai/sdk';
import type { Message } from '@anthropic-ai/sdk/resources/messages';
import type { ToolCall } from '../../../model/chat-message.js';
import type { ModelAnswer, ModelPort, ModelRequest, ModelResult } from '../../../model/model-port.js';
import { createIdleTimeout } from '../create-idle-timeout.js';
import { createModelFailure } from '../create-model-failure.js';
import { toAnthropicFailure } from './to-anthropic-failure.js';
import { toAnthropicConversation, toAnthropicTools } from './to-anthropic-conversation.js';

/** Options for an Anthropic Messages API provider (non-streaming). */
export type AnthropicProviderOptions = {
  /** Name reported in failures and by the resilient model; defaults to `anthropic`. */
  readonly name?: string;
  /** May be empty for compatible endpoints that need no key. */
  readonly apiKey: string;
  /** Origin without `/v1`; defaults to `https://api.anthropic.com`. */
  readonly baseUrl?: string;
  readonly model: string;
  /** Longest wait for the whole answer; defaults to 120 000 (the answer is not streamed). */
  readonly timeoutMs?: number;
  /** Default max output tokens (the API requires one); defaults to 4096. A request's `maxTokens` overrides it. */
  readonly maxTokens?: number;
};

const defaultTimeoutMs = 120_000;
const defaultMaxTokens = 4096;

/** Creates a `ModelPort` over the Anthropic SDK; failures come back as values, never throws. */
export function createAnthropicProvider(options: AnthropicProviderOptions): ModelPort {
  const name = options.name ?? 'anthropic';
  const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
  const client = new Anthropic({
    // A key passed in code stops the SDK from reading ANTHROPIC_* variables and profile files.
    apiKey: options.apiKey === '' ? 'not-needed' : options.apiKey,
    baseURL: options.baseUrl ?? 'https://api.anthropic.com',
    timeout: timeoutMs,
    // The resilient model owns retries; SDK retries would multiply them.
    maxRetries: 0,
    // This SDK sends the key as a bearer token; Anthropic-compatible gateways often read only x-api-key.
    defaultHeaders: options.apiKey === '' ? {} : { 'x-api-key': options.apiKey },
  });

  async function complete(request: ModelRequest): Promise<ModelResult> {
    if (request.signal?.aborted) {
      return { ok: false, failure: createModelFailure({ kind: 'aborted', message: 'the request was aborted', provider: name }) };
    }
    const conversation = toAnthropicConversation(request.messages);
    const idle = createIdleTimeout(timeoutMs, request.signal);
    try {
      const message = await client.messages.create(
        {
          model: options.model,
          max_tokens: request.maxTokens ?? options.maxTokens ?? defaultMaxTokens,
          ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
          messages: conversation.messages,
          ...(conversation.system === undefined ? {} : { system: conversation.system }),
          ...(request.tools.length > 0 ? { tools: toAnthropicTools(request.tools) } : {}),
        },
        { signal: idle.signal },
      );
      return { ok: true, answer: { ...toAnswer(message), model: options.model } };
    } catch (error) {
      const failure = toAnthropicFailure(error, {
        provider: name,
        secret: options.apiKey,
        aborted: request.signal?.aborted === true,
        timedOut: idle.hasTimedOut(),
      });
      return { ok: false, failure };
    } finally {
      idle.dispose();
    }
  }

  return { name, complete };
}

function toAnswer(message: Message): ModelAnswer {
  let text = '';
  const toolCalls: ToolCall[] = [];
  for (const block of message.content) {
    if (block.type === 'text') text += block.text;
    else if (block.type === 'tool_use') {
      toolCalls.push({ id: block.id, name: block.name, argumentsText: JSON.stringify(block.input ?? {}) });
    }
  }
  const usage = message.usage;
  return {
    text,
    toolCalls,
    finishReason: toFinishReason(message.stop_reason, toolCalls.length > 0),
    // input_tokens excludes cache reads; cache writes are billed like input here (the price table has no separate rate).
    usage: { inputTokens: usage.input_tokens + (usage.cache_creation_input_tokens ?? 0), cachedInputTokens: usage.cache_read_input_tokens ?? 0, outputTokens: usage.output_tokens },
  };
}

function toFinishReason(reason: Message['stop_reason'], hasToolCalls: boolean): ModelAnswer['finishReason'] {
  if (hasToolCalls || reason === 'tool_use') return 'tool-calls';
  if (reason === 'end_turn' || reason === 'stop_sequence') return 'stop';
  if (reason === 'max_tokens' || reason === 'model_context_window_exceeded') return 'length';
  return 'other';
}
