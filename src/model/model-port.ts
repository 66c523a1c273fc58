import type { ChatMessage, ToolCall } from './chat-message.js';

/** A tool as the model sees it: name, description and a JSON Schema object for its input. */
export type ToolSchema = {
  readonly name: string;
  readonly description: string;
  readonly parameters: Record<string, unknown>;
};

/** One request to a model. */
export type ModelRequest = {
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly ToolSchema[];
  readonly signal?: AbortSignal;
  /** Called with each text delta when the provider streams; optional. */
  readonly onTextDelta?: (delta: string) => void;
  /** Overrides the provider's default max output tokens (short side calls use a small budget). */
  readonly maxTokens?: number;
  /** Sampling temperature; the provider's default when absent (the approval reviewer asks for 0). */
  readonly temperature?: number;
};

/** Why a model call failed, classified so the caller can decide to retry or fail over. */
export type ModelFailureKind = 'rate-limited' | 'server' | 'network' | 'timeout' | 'auth' | 'bad-request' | 'aborted';

/** A failed model call, as a value. */
export type ModelFailure = {
  readonly kind: ModelFailureKind;
  readonly message: string;
  /** True for 429, 5xx, network and timeouts. */
  readonly retryable: boolean;
  /** Seconds the server asked us to wait (Retry-After), when it said. */
  readonly retryAfterSeconds?: number;
  readonly provider: string;
};

/** What the model answered: text, tool calls, or both. */
export type ModelAnswer = {
  readonly text: string;
  readonly toolCalls: readonly ToolCall[];
  readonly finishReason: 'stop' | 'tool-calls' | 'length' | 'other';
};

/** The result of one model call: an answer or a failure, never a throw. */
export type ModelResult = { readonly ok: true; readonly answer: ModelAnswer } | { readonly ok: false; readonly failure: ModelFailure };

/** The one-method port every model provider implements. */
export interface ModelPort {
  readonly name: string;
  complete(request: ModelRequest): Promise<ModelResult>;
}
