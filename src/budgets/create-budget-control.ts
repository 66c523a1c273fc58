import type { BudgetsConfig, ModelPrice } from '../config/config-schema.js';
import type { ModelRequest, UsageAttribution, UsageHold } from '../model/model-port.js';
import type { AuditLog } from '../registry/audit-log.js';
import type { KeyValueNamespace } from '../store/key-value-namespace.js';
import { type BudgetCheck, type BudgetPeriod, type BudgetRef, type BudgetScope, type BudgetState, type BudgetStatus, type BudgetUnit, budgetStateKey } from './budget-check.js';
import type { BudgetHolds, HoldLine } from './budget-holds.js';
import type { UsageLedger } from './create-usage-ledger.js';
import { estimateInputTokens } from './estimate-request-tokens.js';
import { priceOfCall } from './price-of-call.js';
import { idsOfCall } from './usage-counters.js';
import type { PeriodKeys } from './usage-period.js';
import { totalTokens } from './usage-totals.js';

/** Budgets as the runtime uses them: checks before model calls, the soft-limit card's state, raises, and the ledger. */
export interface BudgetControl {
  readonly ledger: UsageLedger;
  /** False when no budget and no per-turn ceiling is configured: the runtime then checks nothing. */
  readonly enforced: boolean;
  readonly perTurn: BudgetsConfig['perTurn'];
  readonly currency: string;
  /** The worst budget of a chat, person or job: hard or stopped first, then (attended turns only) a soft limit not yet asked about. */
  check(subject: UsageAttribution, options: { readonly attended: boolean }): Promise<BudgetCheck>;
  /**
   * Before a model call: holds an estimate of the call (input by length plus its `maxTokens`, or their price)
   * against every budget that applies, or says which budget is used up or stopped. The hold is settled to
   * the real usage by the meter (or released when the call fails); absent when no budget applies.
   */
  reserve(request: Pick<ModelRequest, 'messages' | 'tools' | 'maxTokens'>, subject: UsageAttribution, model: string): Promise<Reservation>;
  /** Every configured budget that applies to the subject, as it stands now. */
  statuses(subject: UsageAttribution): Promise<readonly BudgetStatus[]>;
  /** Records that a card was shown for this budget in this period (so it is shown once). */
  markAsked(ref: BudgetRef, approvalId: string): Promise<void>;
  /** Applies the card's decision: continue, stop until the reset, or (expired) ask again next turn. */
  settleCard(ref: BudgetRef, outcome: 'continued' | 'stopped' | 'expired', by: string | undefined): Promise<void>;
  /** A configured budget of one scope and id in the current period, or undefined when the configuration has none such. */
  find(input: { readonly scope: BudgetScope; readonly id: string; readonly period: BudgetPeriod; readonly unit: BudgetUnit }): { readonly ref: BudgetRef; readonly resetsAt: string } | undefined;
  /** Raises a budget for the rest of its period (an approver's `/budget raise`), audited. */
  raise(input: { readonly ref: BudgetRef; readonly limit: number; readonly by: string; readonly byId: string; readonly channel: string }): Promise<void>;
}

/** What a reservation before a model call found: go on (settle or release the hold after), or stop. */
export type Reservation = { readonly ok: true; readonly hold?: UsageHold } | { readonly ok: false; readonly stop: { readonly kind: 'hard' | 'stopped'; readonly status: BudgetStatus } };

/** What budget control is built from. */
export type BudgetControlOptions = {
  readonly config: BudgetsConfig;
  readonly ledger: UsageLedger;
  readonly states: KeyValueNamespace<BudgetState>;
  readonly audit: Pick<AuditLog, 'record'>;
  /** Where reservations are held: this process's memory, or PostgreSQL in cluster mode. */
  readonly holds: BudgetHolds;
  readonly prices: Readonly<Record<string, ModelPrice>>;
  /** How long a hold lives when it is never settled (its process died): the longest a turn may run, and a margin. */
  readonly holdTtlMs: number;
  /** Budgets of particular job ids (a hook's own, `hook:<name>`), instead of `config.job` for those ids. */
  readonly jobBudgets?: Readonly<Record<string, NonNullable<BudgetsConfig['job']>>>;
};

const scopes: readonly BudgetScope[] = ['chat', 'user', 'job', 'global'];
const periods: readonly BudgetPeriod[] = ['daily', 'monthly'];
const units: readonly BudgetUnit[] = ['tokens', 'cost'];
const dayMs = 24 * 60 * 60_000;

/** True when any budget is configured (the runtime skips every check otherwise). */
export function hasBudgets(config: BudgetsConfig, jobBudgets: Readonly<Record<string, unknown>> = {}): boolean {
  return config.perTurn !== undefined || scopes.some((scope) => config[scope] !== undefined) || Object.keys(jobBudgets).length > 0;
}

/** Creates budget control over the ledger and the `budget-state` namespace. */
export function createBudgetControl(options: BudgetControlOptions): BudgetControl {
  const { config, ledger } = options;
  const jobBudgets = options.jobBudgets ?? {};
  // `onlyId`: a budget of one job id, which replaces the scope-wide job budget for that id.
  const configured: readonly { readonly scope: BudgetScope; readonly period: BudgetPeriod; readonly unit: BudgetUnit; readonly limit: number; readonly onlyId?: string }[] = [
    ...scopes.flatMap((scope) =>
      periods.flatMap((period) => units.flatMap((unit) => {
        const limit = config[scope]?.[period]?.[unit];
        return limit === undefined ? [] : [{ scope, period, unit, limit }];
      })),
    ),
    ...Object.entries(jobBudgets).flatMap(([onlyId, budget]) =>
      periods.flatMap((period) => units.flatMap((unit) => {
        const limit = budget[period]?.[unit];
        return limit === undefined ? [] : [{ scope: 'job' as const, period, unit, limit, onlyId }];
      })),
    ),
  ];

  /** A budget of a scope and id in the current period: its reference and when it resets. */
  // The period clock hands out the same object all day: its reset times are formatted once (this runs before every model call).
  const resetTimes = new WeakMap<PeriodKeys, { readonly day: string; readonly month: string }>();
  function resetsOf(now: PeriodKeys) {
    let known = resetTimes.get(now);
    if (known === undefined) {
      known = { day: now.dayEndsAt.toISOString(), month: now.monthEndsAt.toISOString() };
      resetTimes.set(now, known);
    }
    return known;
  }

  function inCurrentPeriod(budget: (typeof configured)[number], id: string, now = ledger.periods()) {
    const daily = budget.period === 'daily';
    const periodKey = daily ? now.day : now.month;
    const resetsAt = daily ? resetsOf(now).day : resetsOf(now).month;
    const endsAt = (daily ? now.dayEndsAt : now.monthEndsAt).getTime();
    return { ref: { scope: budget.scope, id, period: budget.period, periodKey, unit: budget.unit }, configuredLimit: budget.limit, resetsAt, endsAt };
  }

  /** The configured budgets that apply to a subject, with their ids and current period. */
  function applicable(subject: UsageAttribution) {
    const ids = new Map(idsOfCall(subject, '').map(([dimension, id]) => [dimension as string, id]));
    const now = ledger.periods();
    return configured.flatMap((budget) => {
      const id = ids.get(budget.scope);
      if (id === undefined) return [];
      if (budget.onlyId !== undefined ? budget.onlyId !== id : budget.scope === 'job' && Object.hasOwn(jobBudgets, id)) return [];
      return [inCurrentPeriod(budget, id, now)];
    });
  }

  async function usedOf(ref: BudgetRef): Promise<number> {
    const totals = await ledger.totals({ period: ref.periodKey, dimension: ref.scope, id: ref.id });
    return ref.unit === 'tokens' ? totalTokens(totals) : totals.cost;
  }

  const ttlOf = (ref: BudgetRef) => (ref.period === 'daily' ? 2 : 32) * dayMs;

  /** A hold on the budgets of a reservation: the meter settles it with the usage in the tick the ledger records it. */
  function holdOf(id: string, lines: readonly HoldLine[], units: readonly BudgetUnit[]): UsageHold {
    let done = false;
    const keys = lines.map((line) => line.key);
    return {
      settle(usage, model) {
        if (done) return;
        done = true;
        const tokens = usage === undefined ? 0 : usage.inputTokens + usage.cachedInputTokens + usage.outputTokens;
        const cost = priceOfCall(usage, options.prices[model]) ?? 0;
        options.holds.settle(id, keys, units.map((unit) => (unit === 'tokens' ? tokens : cost)));
      },
      release() {
        if (done) return;
        done = true;
        options.holds.release(id);
      },
    };
  }

  return {
    ledger,
    enforced: hasBudgets(config, jobBudgets),
    perTurn: config.perTurn,
    currency: config.currency,
    async check(subject, { attended }) {
      let soft: BudgetStatus | undefined;
      for (const budget of applicable(subject)) {
        const used = await usedOf(budget.ref);
        // Below the soft share of the configured limit nothing can apply (a raise only raises): no state to read.
        if (used < config.softLimit * budget.configuredLimit) continue;
        const state = await options.states.get(budgetStateKey(budget.ref));
        const limit = state?.raisedLimit ?? budget.configuredLimit;
        const status: BudgetStatus = { ...budget.ref, used, limit, resetsAt: budget.resetsAt };
        if (used >= limit) return { kind: 'hard', status };
        if (state?.card?.state === 'stopped') return { kind: 'stopped', status };
        if (soft === undefined && attended && config.softLimit < 1 && used >= config.softLimit * limit && state?.card === undefined) soft = status;
      }
      return soft === undefined ? { kind: 'allow' } : { kind: 'soft', status: soft };
    },
    async reserve(request, subject, model) {
      const budgets = applicable(subject);
      if (budgets.length === 0) return { ok: true };
      const inputTokens = estimateInputTokens(request);
      const outputTokens = request.maxTokens ?? config.reserveOutputTokens;
      const estimate = { tokens: inputTokens + outputTokens, cost: priceOfCall({ inputTokens, cachedInputTokens: 0, outputTokens }, options.prices[model]) ?? 0 };
      const lines: HoldLine[] = [];
      const statuses: BudgetStatus[] = [];
      for (const budget of budgets) {
        const address = { period: budget.ref.periodKey, dimension: budget.ref.scope, id: budget.ref.id } as const;
        // In memory almost always: no await then, which is most of this path's cost.
        const read = ledger.peek(address) ?? (await ledger.totals(address));
        const amountOf = (totals: typeof read) => (budget.ref.unit === 'tokens' ? totalTokens(totals) : totals.cost);
        const usedBefore = amountOf(read);
        const amount = estimate[budget.ref.unit];
        // A raise or a stop only matters near the configured limit: below that no state is read.
        const state = usedBefore + amount < config.softLimit * budget.configuredLimit ? undefined : await options.states.get(budgetStateKey(budget.ref));
        const limit = state?.raisedLimit ?? budget.configuredLimit;
        const status: BudgetStatus = { ...budget.ref, used: usedBefore, limit, resetsAt: budget.resetsAt };
        if (state?.card?.state === 'stopped') return { ok: false, stop: { kind: 'stopped', status } };
        statuses.push(status);
        // Read again when reserving (memory-first, no await in between), so a call settled meanwhile is counted.
        const used = () => {
          const now = ledger.peek(address);
          return now === undefined ? usedBefore : amountOf(now);
        };
        lines.push({ key: budgetStateKey(budget.ref), limit, used, amount, periodEndsAt: budget.endsAt });
      }
      const grant = await options.holds.reserve(lines, options.holdTtlMs);
      if (!grant.ok) {
        const refused = statuses[grant.refusedIndex] ?? statuses[0];
        if (refused === undefined) return { ok: true };
        return { ok: false, stop: { kind: 'hard', status: { ...refused, used: Math.max(refused.used, grant.committed) } } };
      }
      return { ok: true, hold: holdOf(grant.id, lines, statuses.map((status) => status.unit)) };
    },
    async statuses(subject) {
      const found: BudgetStatus[] = [];
      for (const budget of applicable(subject)) {
        const state = await options.states.get(budgetStateKey(budget.ref));
        found.push({ ...budget.ref, used: await usedOf(budget.ref), limit: state?.raisedLimit ?? budget.configuredLimit, resetsAt: budget.resetsAt });
      }
      return found;
    },
    async markAsked(ref, approvalId) {
      await options.states.update(budgetStateKey(ref), (current) => ({ ...current, card: { approvalId, state: 'asked' } }), ttlOf(ref));
    },
    async settleCard(ref, outcome, by) {
      await options.states.update(budgetStateKey(ref), (current) => {
        if (outcome === 'expired') {
          const { card: _card, ...rest } = current ?? {};
          return rest;
        }
        return { ...current, card: { approvalId: current?.card?.approvalId ?? '', state: outcome, ...(by === undefined ? {} : { by }) } };
      });
    },
    find({ scope, id, period, unit }) {
      const budget =
        configured.find((candidate) => candidate.onlyId === id && candidate.scope === scope && candidate.period === period && candidate.unit === unit) ??
        configured.find((candidate) => candidate.onlyId === undefined && candidate.scope === scope && candidate.period === period && candidate.unit === unit);
      if (!budget) return undefined;
      const { ref, resetsAt } = inCurrentPeriod(budget, id);
      return { ref, resetsAt };
    },
    async raise({ ref, limit, by, byId, channel }) {
      await options.states.update(budgetStateKey(ref), (current) => ({ ...current, raisedLimit: limit, raisedBy: by }), ttlOf(ref));
      options.audit.record({ kind: 'budget-raised', userId: byId, channel, decidedBy: by, arguments: { ...ref, limit }, outcome: `raised:${limit}` });
    },
  };
}
