/** The units a sub-task's slice is counted in. */
export type DelegationUnit = 'tokens' | 'modelCalls' | 'seconds';

/** An amount of every unit: a turn's allowance, a slice, or what was used. */
export type DelegationAmounts = Readonly<Record<DelegationUnit, number>>;

/** What a sub-task asks for; a unit left out asks for all that remains. */
export type DelegationLimitsRequest = Partial<DelegationAmounts>;

/** The result of carving a slice out of a turn's allowance. */
export type SliceOutcome =
  | { readonly kind: 'reserved'; readonly slice: DelegationAmounts }
  | { readonly kind: 'exhausted'; readonly units: readonly DelegationUnit[] };

/** The result of spending from an allowance. */
export type SpendOutcome = { readonly kind: 'spent' } | { readonly kind: 'exceeded'; readonly units: readonly DelegationUnit[] };

/**
 * A turn's allowance: what it may still spend itself or hand to its children. Invariant: what the turn
 * spent plus the slices its children hold never exceed its total, so a tree of nested allowances never
 * spends more than its root had.
 */
export interface DelegationBudget {
  readonly total: DelegationAmounts;
  /** What is neither spent nor held by a child. */
  remaining(): DelegationAmounts;
  /** Holds a slice for a child, all units or none; a unit with nothing left refuses it. */
  reserveSlice(request: DelegationLimitsRequest): SliceOutcome;
  /** Gives back the part of a child's slice it did not use; the used part stays spent. */
  settleSlice(slice: DelegationAmounts, used: DelegationAmounts): void;
  /** Counts the turn's own use, refused (nothing counted) when it does not fit. */
  spend(amounts: DelegationAmounts): SpendOutcome;
}

/** The units in a fixed order, for loops and messages. */
export const delegationUnits: readonly DelegationUnit[] = ['tokens', 'modelCalls', 'seconds'];

/** Creates the allowance of one turn; a child's total is the slice its parent reserved for it. */
export function createDelegationBudget(total: DelegationAmounts): DelegationBudget {
  const taken: Record<DelegationUnit, number> = { tokens: 0, modelCalls: 0, seconds: 0 };
  const remaining = (): DelegationAmounts => ({
    tokens: Math.max(0, total.tokens - taken.tokens),
    modelCalls: Math.max(0, total.modelCalls - taken.modelCalls),
    seconds: Math.max(0, total.seconds - taken.seconds),
  });
  return {
    total,
    remaining,
    reserveSlice(request) {
      const left = remaining();
      const exhausted = delegationUnits.filter((unit) => left[unit] <= 0);
      if (exhausted.length > 0) return { kind: 'exhausted', units: exhausted };
      const slice = {
        tokens: sliceOf(request.tokens, left.tokens),
        modelCalls: sliceOf(request.modelCalls, left.modelCalls),
        seconds: sliceOf(request.seconds, left.seconds),
      };
      for (const unit of delegationUnits) taken[unit] += slice[unit];
      return { kind: 'reserved', slice };
    },
    settleSlice(slice, used) {
      // A child cannot give back more than it held, nor count less than nothing.
      for (const unit of delegationUnits) taken[unit] -= slice[unit] - Math.min(slice[unit], Math.max(0, used[unit]));
    },
    spend(amounts) {
      const left = remaining();
      const exceeded = delegationUnits.filter((unit) => amounts[unit] > left[unit]);
      if (exceeded.length > 0) return { kind: 'exceeded', units: exceeded };
      for (const unit of delegationUnits) taken[unit] += Math.max(0, amounts[unit]);
      return { kind: 'spent' };
    },
  };
}

/** A slice is what was asked, capped at what remains; a request of nothing or less gets nothing. */
function sliceOf(requested: number | undefined, left: number): number {
  if (requested === undefined) return left;
  return Math.min(Math.max(0, requested), left);
}
