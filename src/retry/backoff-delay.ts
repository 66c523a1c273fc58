/** How waits between attempts grow: the first retry's ceiling, the cap on any wait, and the source of randomness. */
export type Backoff = {
  /** Ceiling of the first retry's wait; it doubles for each retry after. */
  readonly baseMs: number;
  /** No wait is longer than this. */
  readonly maxMs: number;
  /** Returns a number in [0, 1); defaults to `Math.random` (injectable so tests know the wait). */
  readonly random?: () => number;
};

/**
 * The one backoff rule of the project, exponential with full jitter: the wait before retry
 * `retryIndex` (0 for the first retry) is drawn uniformly from [0, min(maxMs, baseMs × 2^retryIndex)).
 * Full jitter spreads the retries of many clients that failed together. Pure but for `random`.
 */
export function backoffDelay(retryIndex: number, backoff: Backoff): number {
  const ceiling = Math.min(backoff.maxMs, backoff.baseMs * 2 ** Math.min(Math.max(retryIndex, 0), 30));
  return Math.floor((backoff.random ?? Math.random)() * ceiling);
}

/** Waits `milliseconds`, or less when the signal aborts; it never rejects, so the caller checks the signal after. */
export function abortableSleep(milliseconds: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, milliseconds);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
