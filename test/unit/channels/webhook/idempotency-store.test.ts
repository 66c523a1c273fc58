import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createIdempotencyStore, type IdempotencyRecord, isValidIdempotencyKey } from '../../../../channels/webhook/idempotency-store.js';
import { createStore } from '../../../../src/store/create-store.js';
import type { Store } from '../../../../src/store/key-value-namespace.js';

let store: Store;
beforeEach(async () => {
  store = await createStore({ url: 'memory:', dataDir: '.' });
});
afterEach(async () => {
  await store.close();
});

describe('Idempotency-Key records', () => {
  it('claims a new key, sees it running, replays the answer, and refuses another body', async () => {
    const records = createIdempotencyStore(store.namespace<IdempotencyRecord>('webhook-idempotency'));
    const now = new Date();
    expect(await records.claim({ key: 'k', rawBody: '{"a":1}', runId: 'run-1', now })).toEqual({ kind: 'new' });
    expect(await records.claim({ key: 'k', rawBody: '{"a":1}', runId: 'run-2', now })).toEqual({ kind: 'running', runId: 'run-1' });
    await records.answer('k', { status: 200, body: { runId: 'run-1', reply: 'hi' } });
    await records.answer('k', { status: 202, body: { runId: 'later' } });
    expect(await records.claim({ key: 'k', rawBody: '{"a":1}', runId: 'run-3', now })).toEqual({ kind: 'answered', runId: 'run-1', response: { status: 200, body: { runId: 'run-1', reply: 'hi' } } });
    expect(await records.claim({ key: 'k', rawBody: '{"a":2}', runId: 'run-4', now })).toEqual({ kind: 'conflict' });
  });

  it('releases a key whose request never ran, so a retry runs', async () => {
    const records = createIdempotencyStore(store.namespace<IdempotencyRecord>('webhook-idempotency'));
    const now = new Date();
    await records.claim({ key: 'k', rawBody: 'b', runId: 'run-1', now });
    await records.release('k', 'another-run');
    expect((await records.claim({ key: 'k', rawBody: 'b', runId: 'x', now })).kind).toBe('running');
    await records.release('k', 'run-1');
    expect(await records.claim({ key: 'k', rawBody: 'b', runId: 'run-2', now })).toEqual({ kind: 'new' });
  });

  it('accepts only short visible ASCII keys', () => {
    expect(isValidIdempotencyKey('order-42')).toBe(true);
    expect(isValidIdempotencyKey('')).toBe(false);
    expect(isValidIdempotencyKey('with space')).toBe(false);
    expect(isValidIdempotencyKey('x'.repeat(256))).toBe(false);
  });
});
