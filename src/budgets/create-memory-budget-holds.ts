import type { BudgetHolds, HoldGrant } from './budget-holds.js';

type Hold = { readonly keys: readonly string[]; readonly amounts: readonly number[]; readonly expiresAt: number };

const sweepEveryMs = 10_000;

/**
 * Reservations in this process's memory: `reserve` checks and holds synchronously (nothing awaits between
 * reading what is used and holding), so concurrent turns of one process cannot overshoot a budget. Settling
 * frees the hold in the same tick as the ledger records the real usage (see create-metered-model.ts).
 */
export function createMemoryBudgetHolds(options: { readonly now?: () => number } = {}): BudgetHolds {
  const now = options.now ?? Date.now;
  const holds = new Map<string, Hold>();
  const held = new Map<string, number>();
  let nextSweepAt = 0;
  // Ids only this process sees: a counter is enough.
  let lastId = 0;

  function free(id: string): void {
    const hold = holds.get(id);
    if (!hold) return;
    holds.delete(id);
    for (const [index, key] of hold.keys.entries()) {
      const left = (held.get(key) ?? 0) - (hold.amounts[index] ?? 0);
      if (left > 1e-12) held.set(key, left);
      else held.delete(key);
    }
  }

  function sweep(at: number, now = false): void {
    if (at < nextSweepAt && !now) return;
    nextSweepAt = at + sweepEveryMs;
    for (const [id, hold] of holds) if (hold.expiresAt <= at) free(id);
  }

  return {
    reserve(lines, ttlMs) {
      const at = now();
      sweep(at);
      const amounts: number[] = [];
      for (const [index, line] of lines.entries()) {
        let committed = line.used() + (held.get(line.key) ?? 0);
        // Before refusing, free what expired since the last sweep: a dead turn's hold must not refuse a live one.
        if (committed >= line.limit && held.has(line.key)) {
          sweep(at, true);
          committed = line.used() + (held.get(line.key) ?? 0);
        }
        if (committed >= line.limit) return Promise.resolve<HoldGrant>({ ok: false, refusedIndex: index, committed });
        // Near the limit a call holds what remains: small budgets still allow calls one at a time.
        amounts.push(Math.min(line.amount, line.limit - committed));
      }
      lastId += 1;
      const id = `m${lastId}`;
      const keys = lines.map((line) => line.key);
      holds.set(id, { keys, amounts, expiresAt: at + ttlMs });
      for (const [index, key] of keys.entries()) held.set(key, (held.get(key) ?? 0) + (amounts[index] ?? 0));
      return Promise.resolve<HoldGrant>({ ok: true, id, amounts });
    },
    settle: (id) => free(id),
    release: (id) => free(id),
    close: async () => undefined,
  };
}
