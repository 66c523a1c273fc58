import type OpenAI from 'openai';
import { EchoError } from '../../../errors/index.js';
import type { ToolCall } from '../../../model/chat-message.js';
import type { ModelAnswer, ModelPort, ModelUsage, ModelRequest, ModelResult } from '../../../model/model-port.js';
import { createIdleTimeout } from '../create-idle-timeout.js';
import { createModelFailure } from '../create-model-failure.js';
import { accumulateOpenAiStream } from './accumulate-openai-stream.js';
import type { ChatCompletion } from './chat-completion-schema.js';
import { createChatCompletionsClient } from './create-chat-completions-client.js';
import { toFinishReason } from './to-finish-reason.js';
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

/**
 * Creates a `ModelPort` for OpenAI and OpenAI-compatible servers; failures come back as values, never
 * throws. A streamed answer goes through the OpenAI SDK (its SSE parsing); a whole answer is one POST
 * through a lean client (see create-chat-completions-client), which costs a fraction of the SDK's CPU.
 */
export function createOpenAiProvider(options: OpenAiProviderOptions): ModelPort {
  const name = options.name ?? 'openai';
  const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
  const stream = options.stream ?? true;
  const baseUrl = options.baseUrl ?? 'https://api.openai.com/v1';
  // The SDK is only for streamed answers: it loads with the first one, so an agent that never streams never loads it.
  let sdk: Promise<OpenAI> | undefined;
  const loadSdk = () => {
    sdk ??= import('openai').then(
      ({ default: OpenAISdk }) =>
        new OpenAISdk({
          // The SDK throws on a missing key; local endpoints ignore this placeholder.
          apiKey: options.apiKey === '' ? 'not-needed' : options.apiKey,
          // Explicit values keep the SDK from reading OPENAI_* environment variables.
          baseURL: baseUrl,
          organization: null,
          project: null,
          timeout: timeoutMs,
          // The resilient model owns retries; SDK retries would multiply them.
          maxRetries: 0,
        }),
    );
    return sdk;
  };
  const completions = createChatCompletionsClient({ provider: name, apiKey: options.apiKey, baseUrl });

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
    const ending = { aborted: () => request.signal?.aborted === true, timedOut: () => idle.hasTimedOut() };
    try {
      // Streaming costs parsing many chunks; it only pays off when someone shows the text as it comes.
      if (!stream || request.onTextDelta === undefined) {
        const posted = await completions.post({ ...body, stream: false }, idle.signal, ending);
        return posted.ok ? toAnswer(posted.completion, options.model, name) : posted;
      }
      // Without include_usage a streamed answer reports no tokens, and its spend could not be accounted.
      const client = await loadSdk();
      const chunks = await client.chat.completions.create({ ...body, stream: true, stream_options: { include_usage: true } }, { signal: idle.signal });
      const answer = await accumulateOpenAiStream(chunks, { onChunk: idle.touch, onTextDelta: guardCallback(request.onTextDelta) });
      return { ok: true, answer: { ...answer, model: options.model } };
    } catch (error) {
      if (error instanceof EchoError) throw error;
      // Only the streamed path throws (the lean client returns its failures), so the SDK is loaded by now.
      const { toOpenAiFailure } = await import('./to-openai-failure.js');
      const failure = toOpenAiFailure(error, { provider: name, secret: options.apiKey, aborted: ending.aborted(), timedOut: ending.timedOut() });
      return { ok: false, failure };
    } finally {
      idle.dispose();
    }
  }

  return { name, complete };
}

/** A whole chat completion as our answer: its first choice's text and function calls. */
function toAnswer(completion: ChatCompletion, model: string, provider: string): ModelResult {
  const choice = completion.choices[0];
  if (choice === undefined) {
    return { ok: false, failure: createModelFailure({ kind: 'server', message: 'the model answered no choices', provider }) };
  }
  const toolCalls: ToolCall[] = (choice.message.tool_calls ?? []).flatMap((call) =>
    call.type === 'function' && call.function ? [{ id: call.id, name: call.function.name, argumentsText: call.function.arguments }] : [],
  );
  const answer: ModelAnswer = {
    text: choice.message.content ?? '',
    toolCalls,
    finishReason: toFinishReason(choice.finish_reason, toolCalls.length > 0),
    model,
    ...usageOf(completion.usage),
  };
  return { ok: true, answer };
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
