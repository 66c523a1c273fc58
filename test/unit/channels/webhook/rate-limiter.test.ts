import { describe, expect, it } from 'vitest';
import { createRateLimiter } from '../../../../channels/webhook/rate-limiter.js';

describe('per-sender rate limiter', () => {
  it('lets a burst of perMinute through, then refuses with a retry time, and refills over the minute', () => {
    let now = new Date('2030-01-01T00:00:00Z');
    const limiter = createRateLimiter({ perMinute: 2, now: () => now });
    expect(limiter.take('a').ok).toBe(true);
    expect(limiter.take('a').ok).toBe(true);
    expect(limiter.take('a')).toEqual({ ok: false, retryAfterSeconds: 30 });
    expect(limiter.take('b').ok).toBe(true);
    now = new Date(now.getTime() + 30_000);
    expect(limiter.take('a').ok).toBe(true);
    expect(limiter.take('a').ok).toBe(false);
  });
});
