import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createUsageLedger } from '../../../src/budgets/create-usage-ledger.js';
import { createPeriodClock } from '../../../src/budgets/usage-period.js';
import type { UsageTotals } from '../../../src/budgets/usage-totals.js';
import { createStore } from '../../../src/store/create-store.js';
import type { Store } from '../../../src/store/key-value-namespace.js';

describe('the usage ledger over a real SQLite file', () => {
  let store: Store | undefined;
  let folder: string | undefined;
  afterEach(async () => {
    await store?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('writes the exact sums of many concurrent calls, coalesced, and two ledgers over one store add up', async () => {
    folder = mkdtempSync(join(tmpdir(), 'echo-ledger-'));
    store = await createStore({ dataDir: folder });
    const periods = createPeriodClock({ timezone: 'UTC', now: () => new Date('2026-05-05T10:00:00Z') });
    const options = { counters: store.namespace<UsageTotals>('usage'), prices: { priced: { input: 2, output: 8 } }, periods, flushDelayMs: 5 };
    const first = createUsageLedger(options);
    const second = createUsageLedger(options);
    const expected = new Map<string, number>();
    for (let index = 0; index < 300; index += 1) {
      const user = `u${index % 3}`;
      const ledger = index % 2 === 0 ? first : second;
      const usage = { inputTokens: index, cachedInputTokens: index % 7, outputTokens: 2 * index };
      ledger.record({ attribution: { origin: 'user', sessionKey: 's', channel: 'telegram', chatId: 'c', userId: user }, model: index % 5 === 0 ? 'unpriced' : 'priced', usage });
      expected.set(user, (expected.get(user) ?? 0) + index + (index % 7) + 2 * index);
      if (index % 50 === 0) await new Promise((resolve) => setTimeout(resolve, 3));
    }
    await Promise.all([first.flush(), second.flush()]);
    const rows = await first.list('day:2026-05-05');
    for (const [user, tokens] of expected) {
      const row = rows.find((candidate) => candidate.dimension === 'user' && candidate.id === `telegram:${user}`);
      expect(row ? row.totals.inputTokens + row.totals.cachedInputTokens + row.totals.outputTokens : undefined).toBe(tokens);
    }
    const global = rows.find((row) => row.dimension === 'global');
    expect(global?.totals).toMatchObject({ calls: 300, unpricedCalls: 60 });
    expect((await store.namespace<UsageTotals>('usage').get('day:2026-05-05|model|unpriced'))).toMatchObject({ calls: 60, cost: 0 });
    expect((await first.list('month:2026-05')).find((row) => row.dimension === 'global')?.totals).toEqual(global?.totals);
  });

  it('keeps only the most recently used counters in memory once written; the others are read again, still exact', async () => {
    folder = mkdtempSync(join(tmpdir(), 'echo-ledger-'));
    store = await createStore({ dataDir: folder });
    const periods = createPeriodClock({ timezone: 'UTC', now: () => new Date('2026-05-05T10:00:00Z') });
    const ledger = createUsageLedger({ counters: store.namespace<UsageTotals>('usage'), prices: {}, periods, flushDelayMs: 60_000 });
    const chats = 5000;
    for (let index = 0; index < chats; index += 1) {
      ledger.record({ attribution: { origin: 'user', sessionKey: `s${index}`, channel: 'telegram', chatId: `c${index}`, userId: `u${index}` }, model: 'm', usage: { inputTokens: 1, cachedInputTokens: 0, outputTokens: 1 } });
    }
    await ledger.flush();
    const last = { origin: 'user', sessionKey: 'last', channel: 'telegram', chatId: `c${chats - 1}`, userId: `u${chats - 1}` } as const;
    ledger.record({ attribution: last, model: 'm', usage: { inputTokens: 1, cachedInputTokens: 0, outputTokens: 1 } });
    await ledger.flush();
    const chat = (index: number) => ({ period: 'day:2026-05-05', dimension: 'chat', id: `telegram:c${index}` }) as const;
    // Two counters per chat (its chat and its person): the first chats' went; the one used again and the shared ones stay.
    expect(ledger.peek(chat(0))).toBeUndefined();
    expect(ledger.peek(chat(chats - 1))).toMatchObject({ calls: 2 });
    expect(ledger.peek({ period: 'day:2026-05-05', dimension: 'global', id: 'all' })).toMatchObject({ calls: chats + 1 });
    expect(await ledger.totals(chat(0))).toMatchObject({ calls: 1, inputTokens: 1, outputTokens: 1 });
    ledger.record({ attribution: { origin: 'user', sessionKey: 's0', channel: 'telegram', chatId: 'c0', userId: 'u0' }, model: 'm', usage: { inputTokens: 1, cachedInputTokens: 0, outputTokens: 1 } });
    await ledger.flush();
    expect(await ledger.totals(chat(0))).toMatchObject({ calls: 2, inputTokens: 2 });
    expect(await store.namespace<UsageTotals>('usage').get('day:2026-05-05|chat|telegram:c0')).toMatchObject({ calls: 2 });
  });

  it('with keepIdleCounters 0 keeps no counter in memory once written, and still answers totals exactly from the store', async () => {
    folder = mkdtempSync(join(tmpdir(), 'echo-ledger-'));
    store = await createStore({ dataDir: folder });
    const periods = createPeriodClock({ timezone: 'UTC', now: () => new Date('2026-05-05T10:00:00Z') });
    const ledger = createUsageLedger({ counters: store.namespace<UsageTotals>('usage'), prices: {}, periods, flushDelayMs: 60_000, keepIdleCounters: 0 });
    const attribution = { origin: 'user', sessionKey: 's', channel: 'telegram', chatId: 'c1', userId: 'u1' } as const;
    const chat = { period: 'day:2026-05-05', dimension: 'chat', id: 'telegram:c1' } as const;
    ledger.record({ attribution, model: 'm', usage: { inputTokens: 3, cachedInputTokens: 0, outputTokens: 1 } });
    // Not written yet: what memory holds counts.
    expect(await ledger.totals(chat)).toMatchObject({ calls: 1, inputTokens: 3 });
    await ledger.flush();
    expect(ledger.peek(chat)).toBeUndefined();
    expect(ledger.peek({ period: 'day:2026-05-05', dimension: 'global', id: 'all' })).toBeUndefined();
    expect(await ledger.totals(chat)).toMatchObject({ calls: 1, inputTokens: 3, outputTokens: 1 });
    ledger.record({ attribution, model: 'm', usage: { inputTokens: 3, cachedInputTokens: 0, outputTokens: 1 } });
    await ledger.flush();
    expect(await ledger.totals(chat)).toMatchObject({ calls: 2, inputTokens: 6, outputTokens: 2 });
    expect(await store.namespace<UsageTotals>('usage').get('day:2026-05-05|chat|telegram:c1')).toMatchObject({ calls: 2, inputTokens: 6 });
  });

  it('sums a month from its days: earlier days from the store, today with what is not written yet', async () => {
    folder = mkdtempSync(join(tmpdir(), 'echo-ledger-'));
    store = await createStore({ dataDir: folder });
    const counters = store.namespace<UsageTotals>('usage');
    let now = new Date('2026-05-01T12:00:00Z');
    const ledger = createUsageLedger({ counters, prices: {}, periods: createPeriodClock({ timezone: 'UTC', now: () => now }), flushDelayMs: 60_000 });
    const call = { attribution: { origin: 'schedule' as const, sessionKey: 's', channel: 'telegram', chatId: 'c', jobId: 'nightly' }, model: 'm', usage: { inputTokens: 10, cachedInputTokens: 0, outputTokens: 5 } };
    ledger.record(call);
    await ledger.flush();
    now = new Date('2026-05-03T12:00:00Z');
    ledger.record(call);
    ledger.record(call);
    const month = await ledger.totals({ period: 'month:2026-05', dimension: 'job', id: 'nightly' });
    expect(month).toMatchObject({ calls: 3, inputTokens: 30, outputTokens: 15, unpricedCalls: 3 });
    expect(await ledger.totals({ period: 'day:2026-05-03', dimension: 'job', id: 'nightly' })).toMatchObject({ calls: 2 });
    expect(await counters.get('day:2026-05-03|job|nightly')).toBeUndefined();
  });
});
