import { describe, expect, it } from 'vitest';
import { abortableSleep, backoffDelay } from '../../../src/retry/backoff-delay.js';

describe('backoffDelay', () => {
  it('draws from [0, min(max, base × 2^n)): full jitter, doubling, capped', () => {
    const almostOne = () => 0.999_999;
    expect([0, 1, 2, 3, 4].map((retry) => backoffDelay(retry, { baseMs: 100, maxMs: 1000, random: almostOne }))).toEqual([99, 199, 399, 799, 999]);
    expect(backoffDelay(2, { baseMs: 100, maxMs: 1000, random: () => 0.5 })).toBe(200);
    expect(backoffDelay(5, { baseMs: 100, maxMs: 1000, random: () => 0 })).toBe(0);
  });

  it('stays at the cap for very large retry counts instead of overflowing', () => {
    expect(backoffDelay(10_000, { baseMs: 500, maxMs: 60_000, random: () => 0.5 })).toBe(30_000);
  });
});

describe('abortableSleep', () => {
  it('resolves early when the signal aborts, and at once when it already has', async () => {
    const controller = new AbortController();
    const sleeping = abortableSleep(60_000, controller.signal);
    controller.abort();
    await expect(sleeping).resolves.toBeUndefined();
    await expect(abortableSleep(60_000, AbortSignal.abort())).resolves.toBeUndefined();
  });
});
