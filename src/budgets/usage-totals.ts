import type { ModelUsage } from '../model/model-port.js';

/** What a counter holds: model calls, tokens by kind, cost, and the calls no price was known for. */
export type UsageTotals = {
  readonly calls: number;
  readonly inputTokens: number;
  readonly cachedInputTokens: number;
  readonly outputTokens: number;
  /** In the currency of the price table; calls of unpriced models add nothing here. */
  readonly cost: number;
  /** Calls of models missing from the price table: their tokens count, their cost is unknown. */
  readonly unpricedCalls: number;
};

/** A counter nothing was added to. */
export const emptyTotals: UsageTotals = { calls: 0, inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, cost: 0, unpricedCalls: 0 };

/** The sum of two counters. Pure. */
export function addTotals(left: UsageTotals, right: UsageTotals): UsageTotals {
  return {
    calls: left.calls + right.calls,
    inputTokens: left.inputTokens + right.inputTokens,
    cachedInputTokens: left.cachedInputTokens + right.cachedInputTokens,
    outputTokens: left.outputTokens + right.outputTokens,
    cost: left.cost + right.cost,
    unpricedCalls: left.unpricedCalls + right.unpricedCalls,
  };
}

/** Every token of a counter: input, cached input and output together (what token budgets measure). Pure. */
export function totalTokens(totals: UsageTotals): number {
  return totals.inputTokens + totals.cachedInputTokens + totals.outputTokens;
}

/** One model call as a counter; `cost` undefined when the model has no price. Pure. */
export function totalsOfCall(usage: ModelUsage | undefined, cost: number | undefined): UsageTotals {
  return {
    calls: 1,
    inputTokens: usage?.inputTokens ?? 0,
    cachedInputTokens: usage?.cachedInputTokens ?? 0,
    outputTokens: usage?.outputTokens ?? 0,
    cost: cost ?? 0,
    unpricedCalls: cost === undefined ? 1 : 0,
  };
}
