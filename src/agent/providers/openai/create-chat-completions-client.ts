import type { Dispatcher, request as undiciRequest } from 'undici';
import type { ModelFailure } from '../../../model/model-port.js';
import { createModelFailure } from '../create-model-failure.js';
import { describeConnectionError } from '../describe-connection-error.js';
import { failureKindForStatus } from '../failure-kind-for-status.js';
import { parseRetryAfter } from '../parse-retry-after.js';
import { type ChatCompletion, chatCompletionSchema, errorBodySchema } from './chat-completion-schema.js';

/** What the client is built from. */
export type ChatCompletionsClientOptions = {
  /** Provider name for failures. */
  readonly provider: string;
  /** Sent as the bearer token (a placeholder when empty); scrubbed from every failure message. */
  readonly apiKey: string;
  /** Base URL ending before `/chat/completions`, e.g. `https://api.openai.com/v1`. */
  readonly baseUrl: string;
};

/** How one call ended from our side, for telling a timeout from the caller's abort. */
export type CallEnding = { readonly aborted: () => boolean; readonly timedOut: () => boolean };

/** The answer to one POST: the completion, or a failure value. */
export type ChatCompletionResult = { readonly ok: true; readonly completion: ChatCompletion } | { readonly ok: false; readonly failure: ModelFailure };

/** POSTs non-streamed chat completions; never throws. */
export type ChatCompletionsClient = {
  post(body: Readonly<Record<string, unknown>>, signal: AbortSignal, ending: CallEnding): Promise<ChatCompletionResult>;
};

/**
 * A non-streamed chat completion is one JSON POST, sent here with undici's `request` over a keep-alive
 * pool of our own. Measured on two cores, it costs a fifth of the CPU the SDK's fetch-based call does
 * (about 130 µs against 600 µs with nine tool schemas), which is most of a turn's own cost in a busy
 * chat. The answer is validated with zod at this edge; failures are classified as the SDK's are.
 */
export function createChatCompletionsClient(options: ChatCompletionsClientOptions): ChatCompletionsClient {
  const url = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  // undici (a megabyte of JavaScript) loads with the first call, not at start-up: an idle agent never pays for it.
  let connection: Promise<{ readonly request: typeof undiciRequest; readonly dispatcher: Dispatcher }> | undefined;
  const connect = () => {
    connection ??= import('undici').then(({ Agent, request }) => ({ request, dispatcher: new Agent({ keepAliveTimeout: 10_000 }) }));
    return connection;
  };
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json',
    // Local endpoints need no key; they get a placeholder, as the SDK path sends.
    authorization: `Bearer ${options.apiKey === '' ? 'not-needed' : options.apiKey}`,
    'user-agent': 'echo-agent',
  };
  const fail = (kind: ModelFailure['kind'], message: string, retryAfterSeconds?: number): ChatCompletionResult => ({
    ok: false,
    failure: createModelFailure({ kind, message, provider: options.provider, secret: options.apiKey, ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }) }),
  });

  return {
    async post(body, signal, ending) {
      let status: number;
      let text: string;
      let responseHeaders: Record<string, string | string[] | undefined>;
      try {
        const { request, dispatcher } = await connect();
        const response = await request(url, { method: 'POST', headers, body: JSON.stringify(body), signal, dispatcher });
        status = response.statusCode;
        responseHeaders = response.headers;
        text = await response.body.text();
      } catch (error) {
        // Order matters: our own timeout and the caller's abort both surface as an aborted request.
        if (ending.aborted()) return fail('aborted', 'the request was aborted');
        if (ending.timedOut()) return fail('timeout', `the model did not answer in time: ${describeConnectionError(error)}`);
        return fail('network', `could not reach the model: ${describeConnectionError(error)}`);
      }
      const parsed = parseJson(text);
      if (status >= 400 || status < 200) {
        const kind = failureKindForStatus(status);
        const serverMessage = errorBodySchema.safeParse(parsed);
        const retryAfterSeconds = kind === 'rate-limited' ? parseRetryAfter(headerReader(responseHeaders)) : undefined;
        return fail(kind, `HTTP ${status}: ${serverMessage.success ? serverMessage.data.error.message : text.slice(0, 200) || 'no message'}`, retryAfterSeconds);
      }
      const completion = chatCompletionSchema.safeParse(parsed);
      if (!completion.success) return fail('server', `the model's answer is not a chat completion: ${completion.error.issues[0]?.message ?? 'unreadable'} (${text.slice(0, 120)})`);
      return { ok: true, completion: completion.data };
    },
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function headerReader(headers: Record<string, string | string[] | undefined>): { get(name: string): string | null } {
  return {
    get(name) {
      const value = headers[name];
      return (Array.isArray(value) ? value[0] : value) ?? null;
    },
  };
}
