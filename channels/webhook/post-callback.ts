import type { Delivery } from '../../src/events/outbound-event.js';
import { abortableSleep, backoffDelay } from '../../src/retry/backoff-delay.js';
import { signBody } from './verify-signature.js';

/** How hard a callback is tried. */
export type CallbackPolicy = {
  readonly attempts: number;
  /** Ceiling of the wait before the second attempt; doubled for each one after (full jitter). */
  readonly baseDelayMs: number;
  readonly timeoutMs: number;
};

/** Four attempts over at most 3.5 s of backoff, 10 s each. */
export const defaultCallbackPolicy: CallbackPolicy = { attempts: 4, baseDelayMs: 500, timeoutMs: 10_000 };

/** POSTs a JSON payload to a callback URL, signed like inbound requests, retrying network errors, 429 and 5xx with backoff. */
export async function postCallback(input: {
  readonly url: string;
  readonly secret: string;
  readonly payload: unknown;
  readonly policy: CallbackPolicy;
  readonly now?: () => Date;
}): Promise<Delivery> {
  const body = JSON.stringify(input.payload);
  let lastError = 'not tried';
  for (let attempt = 1; attempt <= input.policy.attempts; attempt += 1) {
    if (attempt > 1) await abortableSleep(backoffDelay(attempt - 2, { baseMs: input.policy.baseDelayMs, maxMs: 30_000 }));
    const timestamp = String(Math.floor((input.now?.() ?? new Date()).getTime() / 1000));
    try {
      const response = await fetch(input.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-echo-timestamp': timestamp, 'x-echo-signature': signBody(input.secret, timestamp, body) },
        body,
        // A redirect could carry the signed body somewhere else: refuse it.
        redirect: 'manual',
        signal: AbortSignal.timeout(input.policy.timeoutMs),
      });
      await response.body?.cancel().catch(() => undefined);
      if (response.ok) return { ok: true };
      lastError = `the callback answered HTTP ${response.status}`;
      if (response.status !== 429 && response.status < 500) return { ok: false, error: lastError, retryable: false };
    } catch (error) {
      lastError = `the callback could not be reached: ${error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error)}`;
    }
  }
  return { ok: false, error: `${lastError} (after ${input.policy.attempts} attempts)`, retryable: true };
}
