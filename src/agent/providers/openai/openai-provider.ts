import OpenAI from 'openai';
import { EchoError } from '../../../errors/index.js';
import type { ToolCall } from '../../../model/chat-message.js';
import type { ModelAnswer, ModelPort, ModelUsage, ModelRequest, ModelResult } from '../../../model/model-port.js';
import { createIdleTimeout } from '../create-idle-timeout.js';
import { createModelFailure } from '../create-model-failure.js';
import { accumulateOpenAiStream } from './accumulate-openai-stream.js';
import { toFinishReason } from './to-finish-reason.js';
import { toOpenAiFailure } from './to-openai-failure.js';
import { toOpenAiMessages, toOpenAiTools } from './to-openai-messages.js';
import { toOpenAiUsage } from './to-openai-usage.js';

/** Options for an OpenAI or OpenAI-compatible chat completions provider. */
export type OpenAiProviderOptions = {
  /** Name reported in failures and by the resilient model; defaults to `openai`. */
  readonly name?: string;
  /** May be empty for local endpoints that need no key. */
  readonly apiKey: string;
  /** Defaults to `https://api.openai.com/v1`. */
  readonly baseUrl?: string;
  readonly model: string;
  /** Longest wait for the response and, when streaming, between two chunks; defaults to 60 000. */
  readonly timeoutMs?: number;
  /** Streams the answer when the request asks for text as it comes (`onTextDelta`); defaults to true. */
  readonly stream?: boolean;
  /** Default max output tokens; a request's `maxTokens` overrides it. */
  readonly maxTokens?: number;
};

const defaultTimeoutMs = 60_000;

/** Creates a `ModelPort` over the OpenAI SDK; failures come back as values, never throws. */
export function createOpenAiProvider(options: OpenAiProviderOptions): ModelPort {
  const name = options.name ?? 'openai';
  const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
  const stream = options.stream ?? true;
  const client = new OpenAI({
    // The SDK throws on a missing key; local endpoints ignore this placeholder.
    apiKey: options.apiKey === '' ? 'not-needed' : options.apiKey,
    // Explicit values keep the SDK from reading OPENAI_* environment variables.
    baseURL: options.baseUrl ?? 'https://api.openai.com/v1',
    organization: null,
    project: null,
    timeout: timeoutMs,
    // The resilient model owns retries; SDK retries would multiply them.
    maxRetries: 0,
  });

  async function complete(request: ModelRequest): Promise<ModelResult> {
    if (request.signal?.aborted) {
      return { ok: false, failure: createModelFailure({ kind: 'aborted', message: 'the request was aborted', provider: name }) };
    }
    const maxTokens = request.maxTokens ?? options.maxTokens;
    const body = {
      model: options.model,
      messages: toOpenAiMessages(request.messages),
      ...(request.tools.length > 0 ? { tools: toOpenAiTools(request.tools) } : {}),
      ...(maxTokens === undefined ? {} : { max_tokens: maxTokens }),
      ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    };
    const idle = createIdleTimeout(timeoutMs, request.signal);
    try {
      // Streaming costs parsing many chunks; it only pays off when someone shows the text as it comes.
      if (stream && request.onTextDelta !== undefined) {
        // Without include_usage a streamed answer reports no tokens, and its spend could not be accounted.
        const chunks = await client.chat.completions.create({ ...body, stream: true, stream_options: { include_usage: true } }, { signal: idle.signal });
        const answer = await accumulateOpenAiStream(chunks, {
          onChunk: idle.touch,
          ...(request.onTextDelta === undefined ? {} : { onTextDelta: guardCallback(request.onTextDelta) }),
        });
        return { ok: true, answer: { ...answer, model: options.model } };
      }
      const completion = await client.chat.completions.create({ ...body, stream: false }, { signal: idle.signal });
      const choice = completion.choices[0];
      if (choice === undefined) {
        return { ok: false, failure: createModelFailure({ kind: 'server', message: 'the model answered no choices', provider: name }) };
      }
      const toolCalls: ToolCall[] = (choice.message.tool_calls ?? []).flatMap((call) =>
        call.type === 'function' ? [{ id: call.id, name: call.function.name, argumentsText: call.function.arguments }] : [],
      );
      const answer: ModelAnswer = {
        text: choice.message.content ?? '',
        toolCalls,
        finishReason: toFinishReason(choice.finish_reason, toolCalls.length > 0),
        model: options.model,
        ...usageOf(completion.usage),
      };
      return { ok: true, answer };
    } catch (error) {
      if (error instanceof EchoError) throw error;
      const failure = toOpenAiFailure(error, {
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

function usageOf(usage: Parameters<typeof toOpenAiUsage>[0]): { readonly usage?: ModelUsage } {
  const converted = toOpenAiUsage(usage);
  return converted === undefined ? {} : { usage: converted };
}

// A throwing delta callback is a bug in the caller, not a model failure: let it escape as one.
function guardCallback(onTextDelta: (delta: string) => void): (delta: string) => void {
  return (delta) => {
    try {
      onTextDelta(delta);
    } catch (cause) {
      throw new EchoError('model-text-delta-failed', 'the onTextDelta callback threw', { cause });
    }
  };
}
