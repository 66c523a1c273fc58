import type { IncomingHttpHeaders } from 'node:http';

/** A tool call the scripted server should answer with; `arguments` may be an object or raw JSON text. */
export type ScriptedToolCall = {
  readonly name: string;
  readonly arguments: Readonly<Record<string, unknown>> | string;
  readonly id?: string;
};

/**
 * One scripted answer. `status` ≥ 400 answers an error (with `retryAfterSeconds` as a Retry-After
 * header); otherwise `text` and/or `toolCalls` are the reply. `delayMs` waits before answering and
 * combines with any of the others. A step with neither text nor tool calls echoes the last user message.
 */
export type ScriptedStep = {
  readonly text?: string;
  readonly toolCalls?: readonly ScriptedToolCall[];
  readonly status?: number;
  readonly retryAfterSeconds?: number;
  readonly errorMessage?: string;
  readonly delayMs?: number;
  readonly finishReason?: 'stop' | 'length';
  /** Tokens the reply reports (OpenAI `usage`, Anthropic `usage`); default 10 input and 10 output, none cached. */
  readonly usage?: ScriptedUsage;
};

/** Token counts a scripted reply reports: `input` at the full price, `cachedInput` read from the prompt cache. */
export type ScriptedUsage = { readonly input: number; readonly cachedInput?: number; readonly output: number };

/** The parsed JSON body of a model request, loosely typed for test handlers to inspect. */
export type ScriptedRequestBody = {
  readonly model?: string;
  readonly stream?: boolean;
  readonly messages?: readonly { readonly role: string; readonly content?: unknown; readonly [key: string]: unknown }[];
  readonly [key: string]: unknown;
};

/** What a handler learns about the request besides its body. */
export type ScriptedRequestContext = {
  readonly api: 'openai' | 'anthropic';
  /** Text of the last user message (text parts only), or '' when there is none. */
  readonly lastUserText: string;
  readonly headers: IncomingHttpHeaders;
  /** Zero-based index of this request among all recorded requests. */
  readonly requestIndex: number;
};

/** A function that decides the step from the request, e.g. from the last user message. */
export type ScriptedHandler = (
  body: ScriptedRequestBody,
  context: ScriptedRequestContext,
) => ScriptedStep | Promise<ScriptedStep>;

/** A queue entry: a fixed step or a handler. */
export type ScriptedEntry = ScriptedStep | ScriptedHandler;

/** A request the scripted server received. */
export type RecordedRequest = {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: ScriptedRequestBody | undefined;
};
