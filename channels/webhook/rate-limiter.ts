/** Answers whether one more request from a sender fits, and when to retry if not. */
export interface RateLimiter {
  take(senderId: string): { readonly ok: true } | { readonly ok: false; readonly retryAfterSeconds: number };
}

type Bucket = { tokens: number; updatedAt: number };

/** A token bucket per sender: `perMinute` requests in a burst, refilled evenly over a minute. */
export function createRateLimiter(options: { readonly perMinute: number; readonly now?: () => Date }): RateLimiter {
  const buckets = new Map<string, Bucket>();
  const refillPerMs = options.perMinute / 60_000;
  const now = () => (options.now?.() ?? new Date()).getTime();

  function forget(at: number): void {
    // Full buckets hold nothing worth keeping; dropping them keeps the map as small as the active senders.
    for (const [sender, bucket] of buckets) {
      if (bucket.tokens + (at - bucket.updatedAt) * refillPerMs >= options.perMinute) buckets.delete(sender);
    }
  }

  return {
    take(senderId) {
      const at = now();
      if (buckets.size > 10_000) forget(at);
      const bucket = buckets.get(senderId) ?? { tokens: options.perMinute, updatedAt: at };
      bucket.tokens = Math.min(options.perMinute, bucket.tokens + (at - bucket.updatedAt) * refillPerMs);
      bucket.updatedAt = at;
      buckets.set(senderId, bucket);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return { ok: true };
      }
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / refillPerMs / 1000)) };
    },
  };
}
