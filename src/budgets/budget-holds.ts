/** One budget a reservation is made against: its key, its limit now, what is used, and the amount wanted. */
export type HoldLine = {
  /** `budgetStateKey` of the budget in its period. */
  readonly key: string;
  readonly limit: number;
  /** What the ledger says is used, read at the moment of reserving (synchronously: no await between it and the reservation). */
  readonly used: () => number;
  /** The estimate of the call in the budget's unit. */
  readonly amount: number;
  /** When the budget's period is over (ms since the epoch): its shared row may go after that. */
  readonly periodEndsAt: number;
};

/**
 * What a reservation got: per line (same order) the amount held, or the first budget it would cross with
 * what that budget had used and held already.
 */
export type HoldGrant = { readonly ok: true; readonly id: string; readonly amounts: readonly number[] } | { readonly ok: false; readonly refusedIndex: number; readonly committed: number };

/**
 * Reservations against budgets, all or nothing: each budget gets min(amount, what remains), and a budget with
 * nothing left refuses the whole reservation. In one process it lives in memory; in cluster mode it is one
 * SQL statement, so instances cannot overshoot together. Holds expire (`ttlMs`) so a dead process frees them.
 */
export interface BudgetHolds {
  reserve(lines: readonly HoldLine[], ttlMs: number): Promise<HoldGrant>;
  /** Replaces a reservation by what was used, per line (same order as reserved). */
  settle(id: string, keys: readonly string[], used: readonly number[]): void;
  /** Frees a reservation. */
  release(id: string): void;
  close(): Promise<void>;
}
