/** Where a budget applies: each chat, each person, each scheduled job, or everything together. */
export type BudgetScope = 'chat' | 'user' | 'job' | 'global';

/** The period a budget is for, as configured. */
export type BudgetPeriod = 'daily' | 'monthly';

/** What a budget measures. */
export type BudgetUnit = 'tokens' | 'cost';

/** One budget in one period: which scope and id (`telegram:1001`), the period (and its key) and the unit. */
export type BudgetRef = {
  readonly scope: BudgetScope;
  readonly id: string;
  readonly period: BudgetPeriod;
  /** `day:2025-01-31` or `month:2025-01`. */
  readonly periodKey: string;
  readonly unit: BudgetUnit;
};

/** A budget as it stands: what was used, its limit (raised or configured) and when its period ends (ISO). */
export type BudgetStatus = BudgetRef & { readonly used: number; readonly limit: number; readonly resetsAt: string };

/** What the person decided on a budget's soft-limit card, and any raise by an approver, for one period. */
export type BudgetState = {
  readonly card?: { readonly approvalId: string; readonly state: 'asked' | 'continued' | 'stopped'; readonly by?: string };
  readonly raisedLimit?: number;
  readonly raisedBy?: string;
};

/**
 * What a budget check found: go on; ask (the soft limit was crossed and no card was shown this period);
 * stop because a limit is reached (`hard`) or because a person chose to stop until the reset (`stopped`).
 */
export type BudgetCheck = { readonly kind: 'allow' } | { readonly kind: 'soft' | 'hard' | 'stopped'; readonly status: BudgetStatus };

/** Why a turn stopped before a model call: a budget, or the per-turn ceiling. */
export type TurnStop =
  | { readonly kind: 'hard' | 'stopped'; readonly status: BudgetStatus }
  | { readonly kind: 'per-turn'; readonly measure: 'tokens' | 'modelCalls'; readonly limit: number };

/** The store key of a budget's state: `<period key>|<scope>|<id>|<unit>`. Pure. */
export function budgetStateKey(ref: BudgetRef): string {
  return `${ref.periodKey}|${ref.scope}|${ref.id}|${ref.unit}`;
}
