import { describe, expect, it } from 'vitest';
import { createPendingRuns } from '../../../../channels/webhook/pending-runs.js';

describe('pending runs', () => {
  it('wakes every waiter with the outcome, and answers a late waiter from the kept outcome', async () => {
    const runs = createPendingRuns({ maxAgeMs: 60_000 });
    runs.register({ runId: 'r', chatId: 'c', wait: true });
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
});
