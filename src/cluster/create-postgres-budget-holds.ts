import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { BudgetHolds, HoldGrant, HoldLine } from '../budgets/budget-holds.js';
import type { Logger } from '../logging/create-logger.js';

/** Where the shared reservations live, and what to do when PostgreSQL does not answer. */
export type PostgresBudgetHoldsOptions = {
  readonly url: string;
  readonly logger: Logger;
  /** Used while PostgreSQL does not answer: this instance's own reservations (it cannot see the others'). */
  readonly fallback: BudgetHolds;
  /** How often expired holds (of dead processes) are freed; default 30 s. */
  readonly sweepEveryMs?: number;
  readonly now?: () => number;
};

// Instances start together: the lock keeps their CREATE ... IF NOT EXISTS from colliding in the catalog.
const schema = `
BEGIN;
SELECT pg_advisory_xact_lock(hashtextextended('echo-agent:budget-holds-schema', 0));
CREATE TABLE IF NOT EXISTS echo_budget_spend (
  budget_key text PRIMARY KEY,
  spent double precision NOT NULL,
  held double precision NOT NULL,
  budget_limit double precision NOT NULL,
  granted double precision NOT NULL,
  expires_at bigint NOT NULL
);
CREATE TABLE IF NOT EXISTS echo_budget_holds (
  hold_id text NOT NULL,
  budget_key text NOT NULL,
  amount double precision NOT NULL,
  expires_at bigint NOT NULL,
  PRIMARY KEY (hold_id, budget_key)
);
CREATE INDEX IF NOT EXISTS echo_budget_holds_expires ON echo_budget_holds (expires_at);
COMMIT;
`;

// One statement, so instances cannot interleave: each budget's row is created or locked (in key order, so two
// reservations never wait on each other in a circle) and gets min(amount, limit - used - held) only while
// something remains. `spent` learns the ledger's figure too (GREATEST: both are lower bounds of what was used).
// The upsert sees the newest row version after waiting for its lock, which a plain read in the statement would not.
const reserveStatement = `
WITH wanted AS (
  SELECT * FROM unnest($2::text[], $3::float8[], $4::float8[], $5::float8[], $6::bigint[]) AS w(budget_key, used, budget_limit, amount, row_expires_at)
),
granted AS (
  INSERT INTO echo_budget_spend AS s (budget_key, spent, held, budget_limit, granted, expires_at)
  SELECT budget_key, used, LEAST(amount, budget_limit - used), budget_limit, LEAST(amount, budget_limit - used), row_expires_at FROM wanted ORDER BY budget_key
  ON CONFLICT (budget_key) DO UPDATE SET
    spent = GREATEST(s.spent, EXCLUDED.spent),
    held = s.held + LEAST(EXCLUDED.granted, EXCLUDED.budget_limit - GREATEST(s.spent, EXCLUDED.spent) - s.held),
    granted = LEAST(EXCLUDED.granted, EXCLUDED.budget_limit - GREATEST(s.spent, EXCLUDED.spent) - s.held),
    budget_limit = EXCLUDED.budget_limit,
    expires_at = GREATEST(s.expires_at, EXCLUDED.expires_at)
  WHERE GREATEST(s.spent, EXCLUDED.spent) + s.held < EXCLUDED.budget_limit
  RETURNING s.budget_key, s.granted
),
recorded AS (
  INSERT INTO echo_budget_holds (hold_id, budget_key, amount, expires_at) SELECT $1, budget_key, granted, $7 FROM granted
)
SELECT w.budget_key, g.granted, GREATEST(COALESCE(s.spent, 0), w.used) + COALESCE(s.held, 0) AS committed
FROM wanted w LEFT JOIN granted g USING (budget_key) LEFT JOIN echo_budget_spend s USING (budget_key)`;

// Frees a hold (whatever of it the sweep has not freed already) and adds what the call used.
const settleStatement = `
WITH gone AS (
  DELETE FROM echo_budget_holds WHERE hold_id = $1 RETURNING budget_key, amount
),
change AS (
  SELECT budget_key, sum(released) AS released, sum(used) AS used FROM (
    SELECT budget_key, amount AS released, 0::float8 AS used FROM gone
    UNION ALL SELECT budget_key, 0::float8, used FROM unnest($2::text[], $3::float8[]) AS u(budget_key, used)
  ) parts GROUP BY budget_key
)
UPDATE echo_budget_spend s SET held = GREATEST(0, s.held - change.released), spent = s.spent + change.used FROM change WHERE s.budget_key = change.budget_key`;

const sweepStatement = `
WITH gone AS (
  DELETE FROM echo_budget_holds WHERE expires_at < $1 RETURNING budget_key, amount
),
freed AS (
  SELECT budget_key, sum(amount) AS amount FROM gone GROUP BY budget_key
)
UPDATE echo_budget_spend s SET held = GREATEST(0, s.held - freed.amount) FROM freed WHERE s.budget_key = freed.budget_key`;

const retrySetUpAfterMs = 5000;
const statementNames = new Map([
  [reserveStatement, 'echo-budget-reserve'],
  [settleStatement, 'echo-budget-settle'],
  [sweepStatement, 'echo-budget-sweep'],
]);

type ReserveRow = { readonly budget_key: string; readonly granted: number | null; readonly committed: number };

/** Deadlocks (40P01) and serialization failures (40001) are worth one more try. */
const isRetryable = (error: unknown) => typeof error === 'object' && error !== null && ['40P01', '40001'].includes(String((error as { code?: unknown }).code));

/**
 * Budget reservations shared by every instance of a cluster, in two tables of the cluster's PostgreSQL.
 * A reservation is one statement (see `reserveStatement`); settling and releasing are another, sent without
 * waiting. Holds of a process that died are freed once they expire, by whichever instance sweeps first.
 */
export function createPostgresBudgetHolds(options: PostgresBudgetHoldsOptions): BudgetHolds {
  const now = options.now ?? Date.now;
  const pool = new pg.Pool({ connectionString: options.url, max: 4, connectionTimeoutMillis: 5000 });
  pool.on('error', () => undefined);
  let setUp: Promise<boolean> | undefined;
  let setUpFailedAt = Number.NEGATIVE_INFINITY;
  /** The tables exist; a failed set-up is tried again after a while, not on every call. */
  const ready = (): Promise<boolean> => {
    if (setUp === undefined && now() - setUpFailedAt > retrySetUpAfterMs) {
      setUp = pool.query(schema).then(
        () => true,
        (error: unknown) => {
          options.logger.warn({ err: error }, 'budget reservations could not be set up in PostgreSQL; this instance reserves on its own meanwhile');
          setUp = undefined;
          setUpFailedAt = now();
          return false;
        },
      );
    }
    return setUp ?? Promise.resolve(false);
  };
  /** Holds made by the fallback (while PostgreSQL did not answer), so they are settled there too. */
  const local = new Set<string>();
  const pending = new Set<Promise<unknown>>();

  async function query(text: string, values: readonly unknown[]): Promise<pg.QueryResult> {
    // Named, so each connection parses and plans a statement once.
    const name = statementNames.get(text);
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await pool.query(name === undefined ? { text, values: values as unknown[] } : { name, text, values: values as unknown[] });
      } catch (error) {
        if (attempt >= 3 || !isRetryable(error)) throw error;
      }
    }
  }

  function send(text: string, values: readonly unknown[], what: string): void {
    const sent = ready()
      .then((usable) => (usable ? query(text, values) : undefined))
      .catch((error: unknown) => options.logger.warn({ err: error }, `${what} failed; the hold is freed when it expires`))
      .finally(() => pending.delete(sent));
    pending.add(sent);
  }

  const sweep = setInterval(() => send(sweepStatement, [now()], 'freeing expired budget holds'), options.sweepEveryMs ?? 30_000);
  sweep.unref();

  async function reserveShared(lines: readonly HoldLine[], ttlMs: number): Promise<HoldGrant> {
    const id = randomUUID();
    const at = now();
    const used = lines.map((line) => line.used());
    // A budget the ledger already shows used up needs no round trip.
    const over = lines.findIndex((line, index) => (used[index] ?? 0) >= line.limit);
    if (over >= 0) return { ok: false, refusedIndex: over, committed: used[over] ?? 0 };
    const result = await query(reserveStatement, [
      id,
      lines.map((line) => line.key),
      used,
      lines.map((line) => line.limit),
      lines.map((line) => line.amount),
      lines.map((line) => line.periodEndsAt + 24 * 60 * 60_000),
      at + ttlMs,
    ]);
    const rows = new Map((result.rows as ReserveRow[]).map((row) => [row.budget_key, row]));
    const refusedIndex = lines.findIndex((line) => rows.get(line.key)?.granted == null);
    if (refusedIndex < 0) return { ok: true, id, amounts: lines.map((line) => Number(rows.get(line.key)?.granted ?? 0)) };
    // Some budgets held and another refused: free what was held (the refusal stands either way).
    if ([...rows.values()].some((row) => row.granted != null)) send(settleStatement, [id, [], []], 'freeing a refused reservation');
    const refused = lines[refusedIndex];
    return { ok: false, refusedIndex, committed: Number(rows.get(refused?.key ?? '')?.committed ?? refused?.limit ?? 0) };
  }

  return {
    async reserve(lines, ttlMs) {
      if (await ready()) {
        try {
          return await reserveShared(lines, ttlMs);
        } catch (error) {
          options.logger.warn({ err: error }, 'PostgreSQL did not take a budget reservation; this instance reserves on its own meanwhile');
        }
      }
      const grant = await options.fallback.reserve(lines, ttlMs);
      if (grant.ok) local.add(grant.id);
      return grant;
    },
    settle(id, keys, used) {
      if (local.delete(id)) return options.fallback.settle(id, keys, used);
      send(settleStatement, [id, keys, used], 'settling a budget hold');
    },
    release(id) {
      if (local.delete(id)) return options.fallback.release(id);
      send(settleStatement, [id, [], []], 'releasing a budget hold');
    },
    async close() {
      clearInterval(sweep);
      await Promise.allSettled([...pending]);
      await pool.end().catch(() => undefined);
    },
  };
}
