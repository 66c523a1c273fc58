import type { Delivery } from '../../src/events/outbound-event.js';
import { fetchPinned } from '../../src/policy/pinned-fetch.js';
import type { UrlCheck } from '../../src/policy/network-policy.js';
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

/** What one callback POST is built from. */
export type CallbackRequest = {
  readonly url: string;
  readonly secret: string;
  readonly payload: unknown;
  readonly policy: CallbackPolicy;
  /** The network policy: checked before every attempt (after DNS), and the connection goes to the checked address. */
  readonly checkUrl: (url: string) => Promise<UrlCheck>;
  readonly now?: () => Date;
};

/** POSTs a JSON payload to a callback URL, signed like inbound requests, retrying network errors, 429 and 5xx with backoff. */
export async function postCallback(input: CallbackRequest): Promise<Delivery> {
  const body = JSON.stringify(input.payload);
  let lastError = 'not tried';
  for (let attempt = 1; attempt <= input.policy.attempts; attempt += 1) {
    if (attempt > 1) await abortableSleep(backoffDelay(attempt - 2, { baseMs: input.policy.baseDelayMs, maxMs: 30_000 }));
    const check = await input.checkUrl(input.url);
    // A refused address stays refused: no connection, no retry.
    if (!check.ok) return { ok: false, error: `the callback URL is refused: ${check.reason}`, retryable: false };
    const timestamp = String(Math.floor((input.now?.() ?? new Date()).getTime() / 1000));
    try {
      const { response, close } = await fetchPinned({
        url: input.url,
        init: {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-echo-timestamp': timestamp, 'x-echo-signature': signBody(input.secret, timestamp, body) },
          body,
          // A redirect could carry the signed body somewhere else: refuse it.
          redirect: 'manual',
          signal: AbortSignal.timeout(input.policy.timeoutMs),
        },
        pinnedAddress: check.pinnedAddress,
      });
      await response.body?.cancel().catch(() => undefined);
      await close();
      if (response.ok) return { ok: true };
      lastError = `the callback answered HTTP ${response.status}`;
      if (response.status !== 429 && response.status < 500) return { ok: false, error: lastError, retryable: false };
    } catch (error) {
      lastError = `the callback could not be reached: ${error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error)}`;
    }
  }
  return { ok: false, error: `${lastError} (after ${input.policy.attempts} attempts)`, retryable: true };
}
