import { describe, expect, it } from 'vitest';
import { createPendingRuns } from '../../../../channels/webhook/pending-runs.js';

describe('pending runs', () => {
  it('wakes every waiter with the outcome, and answers a late waiter from the kept outcome (runs with an Idempotency-Key)', async () => {
    const runs = createPendingRuns({ maxAgeMs: 60_000 });
    runs.register({ runId: 'r', chatId: 'c', wait: true, keepOutcome: true });
    expect(runs.get('r')).toMatchObject({ heldByRequest: true, hasWaiters: true });
    const first = runs.wait('r', 10_000);
    const second = runs.wait('r', 10_000);
    runs.addMessage('r', 'working on it');
    runs.settle('r', { kind: 'reply', text: 'done', messages: [] });
    const expected = { kind: 'reply', text: 'done', messages: ['working on it'] };
    expect(await first).toEqual(expected);
    expect(await second).toEqual(expected);
    expect(await runs.wait('r', 10_000)).toEqual(expected);
    expect(runs.get('r')).toMatchObject({ heldByRequest: false, hasWaiters: false });
  });

  it('times a wait out, and a released run is no longer held by its request', async () => {
    const runs = createPendingRuns({ maxAgeMs: 60_000 });
    runs.register({ runId: 'r', chatId: 'c', callbackUrl: 'https://example.com', wait: true });
    expect(await runs.wait('r', 1)).toBe('timeout');
    runs.release('r');
    expect(runs.get('r')).toMatchObject({ heldByRequest: false, callbackUrl: 'https://example.com' });
    expect(await runs.wait('unknown', 10_000)).toBe('timeout');
  });

  it('drops runs older than the age limit when new ones arrive', () => {
    let now = 0;
    const runs = createPendingRuns({ maxAgeMs: 1000, now: () => now });
    runs.register({ runId: 'old', chatId: 'c', wait: false });
    now = 2000;
    runs.register({ runId: 'new', chatId: 'c', wait: false });
    expect(runs.get('old')).toBeUndefined();
    expect(runs.get('new')).toBeDefined();
  });

  it('frees a settled run without an Idempotency-Key at once, and a kept one on forget', async () => {
    const runs = createPendingRuns({ maxAgeMs: 60_000 });
    runs.register({ runId: 'plain', chatId: 'c', wait: true });
    runs.register({ runId: 'keyed', chatId: 'c', wait: true, keepOutcome: true });
    runs.settle('plain', { kind: 'reply', text: 'x'.repeat(8000), messages: [] });
    runs.settle('keyed', { kind: 'reply', text: 'y'.repeat(8000), messages: [] });
    expect(runs.get('plain')).toBeUndefined();
    expect(runs.size()).toEqual({ runs: 1, bytes: 8000 });
    runs.forget('keyed');
    expect(runs.size()).toEqual({ runs: 0, bytes: 0 });
  });

  it('keeps at most maxRuns runs and maxBytes of text, dropping the oldest (their waiters time out)', async () => {
    const runs = createPendingRuns({ maxAgeMs: 60_000, maxRuns: 3, maxBytes: 10_000 });
    for (const runId of ['a', 'b', 'c', 'd']) runs.register({ runId, chatId: 'c', wait: false, keepOutcome: true });
    expect(runs.get('a')).toBeUndefined();
    expect(runs.size().runs).toBe(3);
    const waiting = runs.wait('b', 60_000);
    runs.addMessage('c', 'm'.repeat(6000));
    runs.settle('d', { kind: 'reply', text: 'r'.repeat(6000), messages: [] });
    expect(await waiting).toBe('timeout');
    expect(runs.size().bytes).toBeLessThanOrEqual(10_000);
  });
});
