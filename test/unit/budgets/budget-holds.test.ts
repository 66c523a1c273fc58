import { afterAll, describe, expect, it } from 'vitest';
import type { BudgetHolds, HoldLine } from '../../../src/budgets/budget-holds.js';
import { createMemoryBudgetHolds } from '../../../src/budgets/create-memory-budget-holds.js';
import { createPostgresBudgetHolds } from '../../../src/cluster/create-postgres-budget-holds.js';
import { createLogger } from '../../../src/logging/create-logger.js';
import { createScratchDatabase, isPostgresUp } from '../../contracts/scratch-postgres.js';

const day = { periodEndsAt: Date.now() + 86_400_000 };
const line = (key: string, limit: number, amount: number, used = 0): HoldLine => ({ key, limit, amount, used: () => used, ...day });

/** The behaviour both kinds of reservations share. */
function holdsContract(name: string, open: () => Promise<readonly BudgetHolds[]>) {
  describe(name, () => {
    it('grants min(amount, what remains), refuses once nothing remains, and settling frees the hold', async () => {
      const [holds] = await open();
      if (!holds) throw new Error('no holds');
      const first = await holds.reserve([line('g', 10, 4)], 60_000);
      expect(first).toMatchObject({ ok: true, amounts: [4] });
      const second = await holds.reserve([line('g', 10, 100)], 60_000);
      expect(second).toMatchObject({ ok: true, amounts: [6] });
      expect(await holds.reserve([line('g', 10, 1)], 60_000)).toMatchObject({ ok: false, refusedIndex: 0 });
      if (!first.ok) throw new Error('not granted');
      holds.release(first.id);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await holds.reserve([line('g', 10, 100)], 60_000)).toMatchObject({ ok: true, amounts: [4] });
    });

    it('is all or nothing over the budgets of one call: a used-up one refuses, and the others keep nothing', async () => {
      const [holds] = await open();
      if (!holds) throw new Error('no holds');
      expect(await holds.reserve([line('a', 10, 3), line('b', 5, 3, 5)], 60_000)).toMatchObject({ ok: false, refusedIndex: 1 });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await holds.reserve([line('a', 10, 100)], 60_000)).toMatchObject({ ok: true, amounts: [10] });
    });

    it('a hold that is never settled (its process died) stops counting once it expires', async () => {
      const [holds] = await open();
      if (!holds) throw new Error('no holds');
      expect(await holds.reserve([line('e', 10, 10)], 1)).toMatchObject({ ok: true });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await holds.reserve([line('e', 10, 10)], 60_000)).toMatchObject({ ok: true, amounts: [10] });
    });

    it('60 concurrent reservations of 2 against a limit of 10, from every instance at once, grant exactly 10', async () => {
      const instances = await open();
      const grants = await Promise.all(Array.from({ length: 60 }, (_, index) => instances[index % instances.length]?.reserve([line('burst', 10, 2), line(`user-${index % 7}`, 1000, 2)], 60_000)));
      const granted = grants.flatMap((grant) => (grant?.ok ? [grant.amounts[0] ?? 0] : []));
      expect(granted.reduce((sum, amount) => sum + amount, 0)).toBe(10);
      expect(granted).toHaveLength(5);
    });
  });
}

holdsContract('reservations in one process', async () => [createMemoryBudgetHolds({ now: () => Date.now() })]);

const postgresUp = await isPostgresUp();
if (!postgresUp) console.warn('PostgreSQL is not running on 127.0.0.1:5432: the shared budget reservations are not tested.');
describe.skipIf(!postgresUp)('shared', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  });
  // One database and three instances for every case: the cases use budget keys of their own.
  let opened: Promise<readonly BudgetHolds[]> | undefined;
  holdsContract('reservations in PostgreSQL, three instances', () => {
    opened ??= openShared();
    return opened;
  });
  async function openShared(): Promise<readonly BudgetHolds[]> {
    const database = await createScratchDatabase();
    cleanups.push(() => database.drop());
    const logger = await createLogger({ level: 'silent', pretty: false });
    return Array.from({ length: 3 }, () => {
      // The sweep runs often here so the expiry case needs no long wait; the fallback must never be used.
      const fallback: BudgetHolds = { reserve: () => Promise.reject(new Error('fallback used')), settle() {}, release() {}, close: async () => undefined };
      const holds = createPostgresBudgetHolds({ url: database.url, logger, fallback, sweepEveryMs: 10 });
      cleanups.push(() => holds.close());
      return holds;
    });
  }
});
