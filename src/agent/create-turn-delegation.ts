import type { BudgetControl } from '../budgets/create-budget-control.js';
import { createDelegationBudget, type DelegationAmounts, type DelegationBudget } from '../policy/delegation-budget.js';
import type { DelegationLimits } from '../policy/plan-delegation.js';
import type { TurnScope } from './turn-scope.js';

/** Stands for "no ceiling" in an allowance, so slices stay plain JSON numbers in the store. */
export const unbounded = Number.MAX_SAFE_INTEGER;

/** What one run of the loop may hand to sub-tasks: its allowance, the depth and fan-out limits, who runs them. */
export type TurnDelegation = {
  /** This run's tokens, model calls and seconds: its own spend plus its sub-tasks' slices never exceed it. */
  readonly allowance: DelegationBudget;
  readonly limits: DelegationLimits;
  /** The agent that runs the sub-tasks (the configured agent name). */
  readonly agentId: string;
  /** Counts the wall time that passed since the last call as spent (before a slice is carved). */
  catchUpClock(): void;
  /** What is left now, the wall time counted: stored with the turn when it suspends (TurnScope.allowanceLeft). */
  left(): DelegationAmounts;
};

/**
 * A sub-task's own ceiling in this run: its slice, or what its turn had left when it suspended if that is less
 * (a sub-task resumed after its card does not get its whole slice again). Undefined for a turn that is no sub-task. Pure.
 */
export function subTaskCeiling(scope: Pick<TurnScope, 'subTask' | 'allowanceLeft'>): DelegationAmounts | undefined {
  const slice = scope.subTask?.slice;
  if (slice === undefined) return undefined;
  const left = scope.allowanceLeft;
  return {
    tokens: Math.min(slice.tokens, left?.tokens ?? unbounded),
    modelCalls: Math.min(slice.modelCalls, left?.modelCalls ?? unbounded),
    seconds: Math.min(slice.seconds, left?.seconds ?? unbounded),
  };
}

/**
 * The allowance of one run of the loop: the per-turn ceiling (`budgets.perTurn`) and the turn timeout, for a
 * sub-task its own slice, and for a resumed run what its turn had left when it suspended, whichever is smallest.
 * A unit with no ceiling is unbounded.
 */
export function createTurnDelegation(input: {
  readonly scope: Pick<TurnScope, 'subTask' | 'allowanceLeft'>;
  readonly budgets?: Pick<BudgetControl, 'perTurn'>;
  readonly turnTimeoutMs: number;
  readonly limits: DelegationLimits;
  readonly agentId: string;
  readonly now?: () => number;
}): TurnDelegation {
  const now = input.now ?? Date.now;
  const slice = input.scope.subTask?.slice;
  const left = input.scope.allowanceLeft;
  const perTurn = input.budgets?.perTurn;
  const total: DelegationAmounts = {
    tokens: Math.min(perTurn?.tokens ?? unbounded, slice?.tokens ?? unbounded, left?.tokens ?? unbounded),
    modelCalls: Math.min(perTurn?.modelCalls ?? unbounded, slice?.modelCalls ?? unbounded, left?.modelCalls ?? unbounded),
    seconds: Math.min(Math.ceil(input.turnTimeoutMs / 1000), slice?.seconds ?? unbounded, left?.seconds ?? unbounded),
  };
  const allowance = createDelegationBudget(total);
  let clockFrom = now();
  const delegation: TurnDelegation = {
    allowance,
    limits: input.limits,
    agentId: input.agentId,
    left() {
      delegation.catchUpClock();
      return allowance.remaining();
    },
    catchUpClock() {
      const seconds = Math.floor((now() - clockFrom) / 1000);
      if (seconds <= 0) return;
      clockFrom += seconds * 1000;
      allowance.spend({ tokens: 0, modelCalls: 0, seconds: Math.min(seconds, allowance.remaining().seconds) });
    },
  };
  return delegation;
}
