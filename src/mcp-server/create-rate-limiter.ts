/** Whether a call may go ahead now, or how long until it may. */
export type RateDecision = { readonly allowed: true } | { readonly allowed: false; readonly retryAfterSeconds: number };

/** Per-key call limits over a sliding minute, in this process's memory (a restart starts every key afresh). */
export interface RateLimiter {
  /** Counts a call by this key when it is allowed. */
  take(keyName: string, perMinute: number): RateDecision;
}

/** Creates a sliding-window limiter: at most `perMinute` calls in any 60 s for each key. */
export function createRateLimiter(options: { readonly now?: () => number } = {}): RateLimiter {
  const now = options.now ?? Date.now;
  const windowMs = 60_000;
  const calls = new Map<string, number[]>();
  return {
    take(keyName, perMinute) {
      const at = now();
      const recent = (calls.get(keyName) ?? []).filter((time) => time > at - windowMs);
      if (recent.length >= perMinute) {
        calls.set(keyName, recent);
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(((recent[0] ?? at) + windowMs - at) / 1000)) };
      }
      recent.push(at);
      calls.set(keyName, recent);
      return { allowed: true };
    },
  };
}
