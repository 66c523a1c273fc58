import { EchoError } from '../errors/index.js';
import type { ModelFailure, ModelPort, ModelRequest, ModelResult } from '../model/model-port.js';
import { abortableSleep, backoffDelay } from '../retry/backoff-delay.js';

/** What the resilient model reports after each failed attempt (for logs and metrics). */
export type ModelAttemptFailure = {
  readonly failure: ModelFailure;
  /** 1-based attempt number on this provider. */
  readonly attempt: number;
  /** `retry` waits `delayMs` and tries the same provider again; `failover` moves on; `give-up` returns the failure. */
  readonly next: 'retry' | 'failover' | 'give-up';
  readonly delayMs: number;
};

/** Options for the retrying, failing-over model. */
export type ResilientModelOptions = {
  /** Tried in order; the next one takes over when one fails for good. */
  readonly providers: readonly ModelPort[];
  /** Retries per provider after the first attempt; defaults to 3. */
  readonly retries?: number;
  /** Base of the exponential backoff; defaults to 500 ms. */
  readonly baseDelayMs?: number;
  /** Cap on one wait, including a server's Retry-After; defaults to 8000 ms. */
  readonly maxDelayMs?: number;
  /** Waits between attempts; injectable so tests do not wait. Should end early when the signal aborts. */
  readonly sleep?: (milliseconds: number, signal?: AbortSignal) => Promise<void>;
  /** Returns a number in [0, 1) for the jitter; defaults to `Math.random`. */
  readonly random?: () => number;
  /** Called after every failed attempt. */
  readonly onAttemptFailed?: (event: ModelAttemptFailure) => void;
};

/**
 * Wraps providers in one `ModelPort`: retryable failures are retried with exponential backoff and
 * full jitter (Retry-After honoured, capped), then the next provider takes over; auth and
 * bad-request fail over at once; aborts end the call. Returns the last failure when all fail.
 */
export function createResilientModel(options: ResilientModelOptions): ModelPort {
  const { providers } = options;
  if (providers.length === 0) {
    throw new EchoError('resilient-model-no-providers', 'createResilientModel needs at least one provider');
  }
  const retries = options.retries ?? 3;
  if (!Number.isInteger(retries) || retries < 0) {
    throw new EchoError('resilient-model-invalid-retries', `retries must be a whole number ≥ 0, got ${retries}`);
  }
  const baseDelayMs = options.baseDelayMs ?? 500;
  const maxDelayMs = options.maxDelayMs ?? 8000;
  const sleep = options.sleep ?? abortableSleep;
  const random = options.random ?? Math.random;
  const name = providers.map((provider) => provider.name).join(',');

  const backoffMs = (failure: ModelFailure, retryIndex: number): number => {
    if (failure.retryAfterSeconds !== undefined) return Math.min(maxDelayMs, Math.max(0, failure.retryAfterSeconds * 1000));
    return backoffDelay(retryIndex, { baseMs: baseDelayMs, maxMs: maxDelayMs, random });
  };

  async function complete(request: ModelRequest): Promise<ModelResult> {
    let lastFailure: ModelFailure | undefined;
    for (const [providerIndex, provider] of providers.entries()) {
      const isLastProvider = providerIndex === providers.length - 1;
      for (let attempt = 1; attempt <= retries + 1; attempt += 1) {
        if (request.signal?.aborted) return aborted(provider.name);
        const result = await provider.complete(request);
        if (result.ok) return result;
        const { failure } = result;
        lastFailure = failure;
        if (failure.kind === 'aborted') {
          options.onAttemptFailed?.({ failure, attempt, next: 'give-up', delayMs: 0 });
          return result;
        }
        const willRetry = failure.retryable && attempt <= retries;
        const delayMs = willRetry ? backoffMs(failure, attempt - 1) : 0;
        const next = willRetry ? 'retry' : isLastProvider ? 'give-up' : 'failover';
        options.onAttemptFailed?.({ failure, attempt, next, delayMs });
        if (!willRetry) break;
        await sleep(delayMs, request.signal);
      }
    }
    // Invariant: providers is non-empty and every path that leaves the loops without returning set it.
    if (lastFailure === undefined) throw new EchoError('resilient-model-no-attempt', 'no provider was attempted');
    return { ok: false, failure: lastFailure };
  }

  return { name, complete };
}

function aborted(provider: string): ModelResult {
  return { ok: false, failure: { kind: 'aborted', message: 'the request was aborted', retryable: false, provider } };
}
