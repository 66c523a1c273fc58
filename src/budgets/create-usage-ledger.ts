import type { ModelPrice } from '../config/config-schema.js';
import type { ModelUsage, UsageAttribution } from '../model/model-port.js';
import type { KeyValueNamespace } from '../store/key-value-namespace.js';
import { priceOfCall } from './price-of-call.js';
import { type CounterAddress, counterKey, counterKeysOfCall, parseCounterKey } from './usage-counters.js';
import type { PeriodKeys } from './usage-period.js';
import { addTotals, emptyTotals, totalsOfCall, type UsageTotals } from './usage-totals.js';

/** One model call to account. */
export type UsageEntry = { readonly attribution: UsageAttribution; readonly model: string; readonly usage: ModelUsage | undefined };

/** A stored counter with its coordinates (for /usage and `npm run usage`). */
export type UsageRow = CounterAddress & { readonly totals: UsageTotals };

/** Durable usage counters per chat, user, job, model, origin and overall, per day and month. */
export interface UsageLedger {
  /** Adds one call to its counters at once in memory; the store follows within `flushDelayMs`. Returns the call's cost, if priced. */
  record(entry: UsageEntry): { readonly cost: number | undefined };
  /** A counter as stored plus what is not written yet. */
  totals(address: CounterAddress): Promise<UsageTotals>;
  /** Every counter of a period (`day:2025-01-31`), after writing what is pending. Not for hot paths: it lists the namespace. */
  list(period: string): Promise<readonly UsageRow[]>;
  /** The current day and month in the configured zone. */
  periods(): PeriodKeys;
  /** Writes every pending change now and waits for it. */
  flush(): Promise<void>;
}

/** What the ledger is built from. */
export type UsageLedgerOptions = {
  /** Counters keyed `<period>|<dimension>|<id>`. */
  readonly counters: KeyValueNamespace<UsageTotals>;
  readonly prices: Readonly<Record<string, ModelPrice>>;
  readonly periods: () => PeriodKeys;
  /** How long a change may wait in memory, so a busy counter is written once for many calls; default 1000 ms. */
  readonly flushDelayMs?: number;
  readonly onWriteFailed?: (error: unknown) => void;
};

type Cell = { stored: UsageTotals | undefined; loading?: Promise<void>; inFlight: UsageTotals | undefined; pending: UsageTotals | undefined };

const dayMs = 24 * 60 * 60_000;
// Long enough for `npm run usage` to show last month's days and last year's months; the purge removes the rest.
const keepDayCountersMs = 40 * dayMs;
const keepMonthCountersMs = 400 * dayMs;

/**
 * Creates the ledger. Each counter is one record changed by the store's `update` (its compare-and-set), so
 * reading a budget never scans a log. Calls add to memory first and each counter is written at most once
 * per `flushDelayMs` with everything added meanwhile: a crash loses at most that much accounting.
 */
export function createUsageLedger(options: UsageLedgerOptions): UsageLedger {
  const flushDelayMs = options.flushDelayMs ?? 1000;
  const cells = new Map<string, Cell>();
  const writes = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | undefined;
  let currentDay = '';

  const cellOf = (key: string): Cell => {
    let cell = cells.get(key);
    if (!cell) {
      cell = { stored: undefined, inFlight: undefined, pending: undefined };
      cells.set(key, cell);
    }
    return cell;
  };

  function write(key: string, cell: Cell): void {
    const delta = cell.pending;
    if (delta === undefined || cell.inFlight !== undefined) return;
    cell.pending = undefined;
    cell.inFlight = delta;
    const ttlMs = key.startsWith('day:') ? keepDayCountersMs : keepMonthCountersMs;
    const done = options.counters
      .update(key, (current) => addTotals(current ?? emptyTotals, delta), ttlMs)
      .then(
        (written) => {
          cell.stored = written;
        },
        (error: unknown) => {
          // Not written means not lost: the change waits for the next flush.
          cell.pending = cell.pending === undefined ? delta : addTotals(delta, cell.pending);
          options.onWriteFailed?.(error);
        },
      )
      .finally(() => {
        cell.inFlight = undefined;
        writes.delete(done);
        if (cell.pending !== undefined) schedule();
      });
    writes.add(done);
  }

  function flushNow(): void {
    timer = undefined;
    for (const [key, cell] of cells) write(key, cell);
  }

  function schedule(): void {
    if (timer !== undefined) return;
    timer = setTimeout(flushNow, flushDelayMs);
    timer.unref();
  }

  /** Forgets counters of periods that are over once nothing of theirs waits to be written. */
  function forgetPastPeriods(periods: PeriodKeys): void {
    if (periods.day === currentDay) return;
    currentDay = periods.day;
    for (const [key, cell] of cells) {
      if (!key.startsWith(`${periods.day}|`) && !key.startsWith(`${periods.month}|`) && cell.pending === undefined && cell.inFlight === undefined) cells.delete(key);
    }
  }

  async function load(key: string, cell: Cell): Promise<void> {
    if (cell.stored !== undefined) return;
    cell.loading ??= options.counters.get(key).then((stored) => {
      cell.stored ??= stored ?? emptyTotals;
    });
    await cell.loading;
  }

  return {
    record(entry) {
      const periods = options.periods();
      forgetPastPeriods(periods);
      const cost = priceOfCall(entry.usage, options.prices[entry.model]);
      const call = totalsOfCall(entry.usage, cost);
      for (const key of counterKeysOfCall(entry.attribution, entry.model, periods)) {
        const cell = cellOf(key);
        cell.pending = cell.pending === undefined ? call : addTotals(cell.pending, call);
      }
      schedule();
      return { cost };
    },
    async totals(address) {
      const key = counterKey(address);
      const cell = cellOf(key);
      await load(key, cell);
      return [cell.inFlight, cell.pending].reduce<UsageTotals>((sum, part) => (part === undefined ? sum : addTotals(sum, part)), cell.stored ?? emptyTotals);
    },
    async list(period) {
      await this.flush();
      const rows: UsageRow[] = [];
      for (const [key, totals] of await options.counters.entries()) {
        const address = parseCounterKey(key);
        if (address?.period === period) rows.push({ ...address, totals });
      }
      return rows;
    },
    periods: options.periods,
    async flush() {
      clearTimeout(timer);
      flushNow();
      // A few rounds: changes made while writing go too, and a store that keeps failing cannot hold the caller for ever.
      for (let round = 0; round < 3 && writes.size > 0; round += 1) {
        await Promise.all([...writes]);
        flushNow();
      }
    },
  };
}
