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
  /** A counter as stored plus what is not written yet; a month's is the sum of its days. */
  totals(address: CounterAddress): Promise<UsageTotals>;
  /** The same as `totals` without waiting, or undefined when it is not in memory yet (a reservation reads this, after `totals`). */
  peek(address: CounterAddress): UsageTotals | undefined;
  /** Every counter of a period (`day:2025-01-31`, or `month:2025-01` summed from its days), after writing what is pending. Not for hot paths: it lists the namespace. */
  list(period: string): Promise<readonly UsageRow[]>;
  /** The current day and month in the configured zone. */
  periods(): PeriodKeys;
  /** Writes every pending change now and waits for it. */
  flush(): Promise<void>;
}

/** What the ledger is built from. */
export type UsageLedgerOptions = {
  /** Day counters keyed `day:<date>|<dimension>|<id>`. */
  readonly counters: KeyValueNamespace<UsageTotals>;
  readonly prices: Readonly<Record<string, ModelPrice>>;
  readonly periods: () => PeriodKeys;
  /** How long a change may wait in memory, so a busy counter is written once for many calls; default 1000 ms. */
  readonly flushDelayMs?: number;
  readonly onWriteFailed?: (error: unknown) => void;
};

type Cell = {
  stored: UsageTotals | undefined;
  loading?: Promise<void>;
  inFlight: UsageTotals | undefined;
  pending: UsageTotals | undefined;
  /** Used since the last pass that forgets idle counters (a second chance: the busy ones stay). */
  recent?: boolean;
};

const dayMs = 24 * 60 * 60_000;
// Months are sums of days: day counters are kept long enough for `npm run usage` to show last year's months.
const keepDayCountersMs = 400 * dayMs;
const maxWritesAtOnce = 16;
/**
 * Counters kept in memory once written and idle, the most recently used; older ones are read from the store again
 * when needed. Without a bound every chat and person of the day stayed in memory until midnight (10,000 chats:
 * about 5 MB, and a larger heap for the garbage collector to grow from).
 */
const keepIdleCounters = 4096;

/**
 * Creates the ledger. Each day counter is one record the store adds to (`addNumbers`: one statement on PostgreSQL), so
 * reading a budget never scans a log. Calls add to memory first and each counter is written at most once
 * per `flushDelayMs` with everything added meanwhile: a crash loses at most that much accounting. Only day
 * counters are written (half the writes of keeping months too); a month is the sum of its earlier days, read
 * once a day per counter, and today's.
 */
export function createUsageLedger(options: UsageLedgerOptions): UsageLedger {
  const flushDelayMs = options.flushDelayMs ?? 1000;
  const cells = new Map<string, Cell>();
  const writes = new Set<Promise<void>>();
  /** The sum of this month's days before today, per `<dimension>|<id>`; dropped when the day changes. */
  const monthsBeforeToday = new Map<string, Promise<UsageTotals>>();
  /** The same sums once read, for `peek`. */
  const monthsBeforeTodayRead = new Map<string, UsageTotals>();
  /** Counters this round of writing still has to write, started a few at a time. */
  let due: string[] = [];
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

  /**
   * Forgets counters past the bound, oldest first, among those with nothing to write or read and not used since
   * the last pass (the clock algorithm: no reordering of the map on every call).
   */
  function forgetIdleCounters(): void {
    if (cells.size <= keepIdleCounters) return;
    for (const [key, cell] of cells) {
      if (cells.size <= keepIdleCounters) break;
      if (cell.recent === true) {
        cell.recent = false;
        continue;
      }
      const loading = cell.stored === undefined && cell.loading !== undefined;
      if (cell.pending === undefined && cell.inFlight === undefined && !loading) cells.delete(key);
    }
    // Month sums before today are per counter too: the oldest go first (they are read again when needed).
    for (const sums of [monthsBeforeToday, monthsBeforeTodayRead]) {
      for (const key of sums.keys()) {
        if (sums.size <= keepIdleCounters) break;
        sums.delete(key);
      }
    }
  }

  function write(key: string, cell: Cell): void {
    const delta = cell.pending;
    if (delta === undefined || cell.inFlight !== undefined) return;
    cell.pending = undefined;
    cell.inFlight = delta;
    const done = options.counters
      .addNumbers(key, delta, keepDayCountersMs)
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
        startDue();
      });
    writes.add(done);
  }

  // A few writes at a time: a round of hundreds of counters must not stand in front of the turns' own writes.
  function startDue(): void {
    while (writes.size < maxWritesAtOnce && due.length > 0) {
      const key = due.pop() ?? '';
      const cell = cells.get(key);
      if (cell) write(key, cell);
    }
  }

  function flushNow(): void {
    timer = undefined;
    forgetIdleCounters();
    due = [...cells.entries()].filter(([, cell]) => cell.pending !== undefined).map(([key]) => key);
    startDue();
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
    monthsBeforeToday.clear();
    monthsBeforeTodayRead.clear();
    for (const [key, cell] of cells) {
      if (!key.startsWith(`${periods.day}|`) && cell.pending === undefined && cell.inFlight === undefined) cells.delete(key);
    }
  }

  const inMemory = (cell: Cell): UsageTotals => [cell.inFlight, cell.pending].reduce<UsageTotals>((sum, part) => (part === undefined ? sum : addTotals(sum, part)), cell.stored ?? emptyTotals);

  async function dayTotals(key: string): Promise<UsageTotals> {
    const cell = cellOf(key);
    await load(key, cell);
    return inMemory(cell);
  }

  function peek(address: CounterAddress): UsageTotals | undefined {
    const periods = options.periods();
    if (!address.period.startsWith('month:')) {
      const cell = cells.get(counterKey(address));
      return cell?.stored === undefined ? undefined : inMemory(cell);
    }
    if (address.period !== periods.month) return undefined;
    const before = monthsBeforeTodayRead.get(`${address.dimension}|${address.id}`);
    const today = cells.get(counterKey({ ...address, period: periods.day }));
    return before === undefined || today?.stored === undefined ? undefined : addTotals(before, inMemory(today));
  }

  /** The sum of the given days of a month for one counter (missing days count nothing). */
  async function sumOfDays(month: string, days: number, dimension: string, id: string): Promise<UsageTotals> {
    const keys = Array.from({ length: days }, (_, index) => `day:${month}-${String(index + 1).padStart(2, '0')}|${dimension}|${id}`);
    const found = await Promise.all(keys.map((key) => options.counters.get(key)));
    return found.reduce<UsageTotals>((sum, totals) => (totals === undefined ? sum : addTotals(sum, totals)), emptyTotals);
  }

  async function monthTotals(address: CounterAddress): Promise<UsageTotals> {
    const periods = options.periods();
    forgetPastPeriods(periods);
    const month = address.period.slice('month:'.length);
    // A month other than the current one (rare: npm run usage) is read whole.
    if (address.period !== periods.month) return sumOfDays(month, 31, address.dimension, address.id);
    const earlier = `${address.dimension}|${address.id}`;
    let before = monthsBeforeToday.get(earlier);
    if (before === undefined) {
      before = sumOfDays(month, Number(periods.day.slice(-2)) - 1, address.dimension, address.id);
      monthsBeforeToday.set(earlier, before);
      const reading = before;
      reading.then((sum) => {
        if (monthsBeforeToday.get(earlier) === reading) monthsBeforeTodayRead.set(earlier, sum);
      }, () => undefined);
      // A failed read is not remembered: the next check reads again.
      before.catch(() => monthsBeforeToday.delete(earlier));
    }
    return addTotals(await before, await dayTotals(counterKey({ ...address, period: periods.day })));
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
      for (const key of counterKeysOfCall(entry.attribution, entry.model, periods.day)) {
        const cell = cellOf(key);
        cell.recent = true;
        cell.pending = cell.pending === undefined ? call : addTotals(cell.pending, call);
      }
      schedule();
      return { cost };
    },
    totals: (address) => (address.period.startsWith('month:') ? monthTotals(address) : dayTotals(counterKey(address))),
    peek,
    async list(period) {
      await this.flush();
      // A month's rows add up its days' rows.
      const dayPrefix = period.startsWith('month:') ? `day:${period.slice('month:'.length)}-` : undefined;
      const rows = new Map<string, UsageRow>();
      for (const [key, totals] of await options.counters.entries()) {
        const address = parseCounterKey(key);
        if (address === undefined || (dayPrefix === undefined ? address.period !== period : !address.period.startsWith(dayPrefix))) continue;
        const name = `${address.dimension}|${address.id}`;
        const earlier = rows.get(name);
        rows.set(name, { period, dimension: address.dimension, id: address.id, totals: earlier === undefined ? totals : addTotals(earlier.totals, totals) });
      }
      return [...rows.values()];
    },
    periods: options.periods,
    async flush() {
      clearTimeout(timer);
      // A few rounds: changes made while writing go too, and a store that keeps failing cannot hold the caller for ever.
      for (let round = 0; round < 3; round += 1) {
        flushNow();
        while (writes.size > 0) await Promise.race([...writes]);
      }
    },
  };
}
