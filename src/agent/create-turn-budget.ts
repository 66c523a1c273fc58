import type { TurnStop } from '../budgets/budget-check.js';
import type { BudgetControl } from '../budgets/create-budget-control.js';
import type { ModelRequest, ModelUsage, UsageHold } from '../model/model-port.js';
import { attributionOf } from './attribution-of.js';
import type { TurnScope } from './turn-scope.js';
import { subTaskCeiling } from './create-turn-delegation.js';

/** Before a model call: stop, or go on with what was reserved against the budgets (the meter settles it). */
export type BeforeModelCall = { readonly stop: TurnStop } | { readonly stop?: undefined; readonly hold?: UsageHold };

/** The budget of one run of the loop: asked before every model call, told after each. */
export type TurnBudget = {
  /** Why the next model call must not happen (the per-turn ceiling, a budget used up or stopped), or the hold reserved for it. */
  beforeModelCall(request: Pick<ModelRequest, 'messages' | 'tools' | 'maxTokens'>, model: string): Promise<BeforeModelCall>;
  afterModelCall(usage: ModelUsage | undefined): void;
};

/**
 * The turn's budget, or undefined when no budget, no ceiling and no sub-task slice applies (the loop then checks
 * nothing). A sub-task's slice is a ceiling of its own: the smaller of it and `budgets.perTurn` stops the loop.
 */
export function createTurnBudget(control: BudgetControl | undefined, scope: TurnScope): TurnBudget | undefined {
  const enforced = control?.enforced === true;
  if (!enforced && scope.subTask === undefined) return undefined;
  const subject = attributionOf(scope);
  const ceiling = ceilingOf(enforced ? control?.perTurn : undefined, subTaskCeiling(scope));
  let calls = 0;
  let tokens = 0;
  return {
    async beforeModelCall(request, model) {
      if (ceiling?.modelCalls !== undefined && calls >= ceiling.modelCalls) return { stop: { kind: 'per-turn', measure: 'modelCalls', limit: ceiling.modelCalls } };
      if (ceiling?.tokens !== undefined && tokens >= ceiling.tokens) return { stop: { kind: 'per-turn', measure: 'tokens', limit: ceiling.tokens } };
      // Mid-turn only a used-up or stopped budget stops the loop (the soft-limit card is asked before a turn starts);
      // the call's estimate is held against every budget at once, so concurrent turns cannot all pass one check.
      if (!enforced || control === undefined) return {};
      const reserved = await control.reserve(request, subject, model);
      return reserved.ok ? (reserved.hold === undefined ? {} : { hold: reserved.hold }) : { stop: reserved.stop };
    },
    afterModelCall(usage) {
      calls += 1;
      tokens += (usage?.inputTokens ?? 0) + (usage?.cachedInputTokens ?? 0) + (usage?.outputTokens ?? 0);
    },
  };
}

/** The smaller of the per-turn ceiling and a sub-task's slice, per measure; a measure neither limits is absent. Pure. */
function ceilingOf(perTurn: { readonly modelCalls?: number; readonly tokens?: number } | undefined, slice: { readonly modelCalls: number; readonly tokens: number } | undefined): { readonly modelCalls?: number; readonly tokens?: number } | undefined {
  if (slice === undefined) return perTurn;
  return {
    modelCalls: Math.min(perTurn?.modelCalls ?? slice.modelCalls, slice.modelCalls),
    tokens: Math.min(perTurn?.tokens ?? slice.tokens, slice.tokens),
  };
}
