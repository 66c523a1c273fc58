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
  /** Who the call is for, so its usage is accounted to them (see src/budgets/); providers ignore it. */
  readonly attribution?: UsageAttribution;
  /** What the turn reserved against its budgets before the call (see src/budgets/); the meter settles or releases it, providers ignore it. */
  readonly hold?: UsageHold;
};

/** An amount reserved against budgets before a model call: settled to the call's real usage once answered, released if it failed. */
export interface UsageHold {
  /** Replaces the reservation by what the call used (the rest is free again); at most once. */
  settle(usage: ModelUsage | undefined, model: string): void;
  /** Frees the whole reservation (the call failed or was not made); at most once, and a no-op after `settle`. */
  release(): void;
}

/** What started a model call, for accounting: the turn's origin, or one of the side calls a turn makes. */
export type UsageOrigin = 'user' | 'schedule' | 'system' | 'risk-explainer' | 'reviewer' | 'compaction' | 'memory';

/** Whose a model call's usage is: the session, user, chat and (for scheduled turns) job it is counted to. */
export type UsageAttribution = {
  readonly origin: UsageOrigin;
  readonly sessionKey: string;
  /** The person billed in its channel: the sender, a webhook's client, a scheduled job's creator; absent for jobs from config. */
  readonly userId?: string;
  readonly channel: string;
  readonly chatId: string;
  readonly jobId?: string;
};

/** Why a model call failed, classified so the caller can decide to retry or fail over. */
export type ModelFailureKind = 'rate-limited' | 'server' | 'network' | 'timeout' | 'auth' | 'bad-request' | 'aborted' | 'budget';

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

/**
 * Tokens one model call used, as the provider reported them. `inputTokens` are the input tokens billed at the
 * full price (cache writes included), `cachedInputTokens` those read from the provider's prompt cache.
 */
export type ModelUsage = {
  readonly inputTokens: number;
  readonly cachedInputTokens: number;
  readonly outputTokens: number;
};

/** What the model answered: text, tool calls, or both. */
export type ModelAnswer = {
  readonly text: string;
  readonly toolCalls: readonly ToolCall[];
  readonly finishReason: 'stop' | 'tool-calls' | 'length' | 'other';
  /** Absent when the provider reported none (some OpenAI-compatible servers do not). */
  readonly usage?: ModelUsage;
  /** The configured model name that answered (for the price table); absent from in-process test models. */
  readonly model?: string;
};

/** The result of one model call: an answer or a failure, never a throw. */
export type ModelResult = { readonly ok: true; readonly answer: ModelAnswer } | { readonly ok: false; readonly failure: ModelFailure };

/** The one-method port every model provider implements. */
export interface ModelPort {
  readonly name: string;
  complete(request: ModelRequest): Promise<ModelResult>;
}
