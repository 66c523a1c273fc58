import { assertNever } from '../events/assert-never.js';
import type { DelegationAmounts, DelegationBudget, DelegationLimitsRequest, DelegationUnit } from './delegation-budget.js';
import type { DelegationChain } from './delegation-chain.js';

/** What a parent turn's model asks a sub-task to do. */
export type DelegationRequest = {
  readonly name: string;
  readonly tools: readonly string[];
  readonly limits: DelegationLimitsRequest;
};

/** The parent turn, as far as narrowing its authority is concerned. */
export type DelegatingTurn = {
  readonly executionId: string;
  readonly agentId: string;
  /** The tools resolved for the parent's conversation (resolveToolSet). */
  readonly visibleTools: ReadonlySet<string>;
  /** The parent's own narrowing, when the parent is itself a sub-task. */
  readonly allowedTools?: readonly string[];
  readonly chain: DelegationChain;
  /** Children of this turn running now. */
  readonly runningChildren: number;
  readonly budget: DelegationBudget;
};

/** How deep and how wide delegation may go. */
export type DelegationLimits = {
  /** Sub-tasks below a person's turn: 2 lets a child delegate once more. */
  readonly maxDepth: number;
  /** Children of one turn running at the same time. */
  readonly maxParallel: number;
};

/** The defaults of `agent.delegation`. */
export const defaultDelegationLimits: DelegationLimits = { maxDepth: 2, maxParallel: 3 };

/** Why a sub-task was refused before it started. */
export type DelegationRefusal =
  | { readonly kind: 'tools-not-visible'; readonly tools: readonly string[] }
  | { readonly kind: 'too-deep'; readonly maxDepth: number }
  | { readonly kind: 'too-many-children'; readonly maxParallel: number }
  | { readonly kind: 'budget-exhausted'; readonly units: readonly DelegationUnit[] };

/** What a sub-task may do: the scope its turn runs in. */
export type DelegationGrant = {
  /** The tools the child sees and may call: exactly those asked for, all visible to the parent. */
  readonly allowedTools: readonly string[];
  readonly visibleTools: ReadonlySet<string>;
  /** The slice of the parent's allowance held for the child; the child's total. */
  readonly slice: DelegationAmounts;
  /** The parent's chain plus this sub-task. */
  readonly chain: DelegationChain;
};

/** A sub-task either starts with a narrowed grant or is refused, naming why. */
export type DelegationPlan = { readonly kind: 'granted'; readonly grant: DelegationGrant } | { readonly kind: 'refused'; readonly refusal: DelegationRefusal };

/** The tools a turn could see: its resolved set, narrowed by its own allow-list when it has one. */
export function toolsVisibleTo(turn: Pick<DelegatingTurn, 'visibleTools' | 'allowedTools'>): ReadonlySet<string> {
  if (!turn.allowedTools) return turn.visibleTools;
  return new Set(turn.allowedTools.filter((name) => turn.visibleTools.has(name)));
}

/**
 * Narrows a parent's authority for one sub-task, before it starts. Checks, in order: every asked tool
 * is visible to the parent (else refused naming the others), the depth, the parallel children, then
 * reserves the slice (the only step with an effect, so a refusal holds nothing).
 */
export function planDelegation(turn: DelegatingTurn, request: DelegationRequest, limits: DelegationLimits): DelegationPlan {
  const parentTools = toolsVisibleTo(turn);
  const asked = [...new Set(request.tools)];
  const notVisible = asked.filter((name) => !parentTools.has(name));
  if (notVisible.length > 0) return { kind: 'refused', refusal: { kind: 'tools-not-visible', tools: notVisible } };
  if (turn.chain.length + 1 > limits.maxDepth) return { kind: 'refused', refusal: { kind: 'too-deep', maxDepth: limits.maxDepth } };
  if (turn.runningChildren >= limits.maxParallel) return { kind: 'refused', refusal: { kind: 'too-many-children', maxParallel: limits.maxParallel } };
  const reserved = turn.budget.reserveSlice(request.limits);
  if (reserved.kind === 'exhausted') return { kind: 'refused', refusal: { kind: 'budget-exhausted', units: reserved.units } };
  return {
    kind: 'granted',
    grant: {
      allowedTools: asked,
      visibleTools: new Set(asked),
      slice: reserved.slice,
      chain: [...turn.chain, { name: request.name, parentExecutionId: turn.executionId, agentId: turn.agentId }],
    },
  };
}

/** The sentence the parent's model reads when a sub-task is refused. */
export function describeDelegationRefusal(refusal: DelegationRefusal): string {
  switch (refusal.kind) {
    case 'tools-not-visible':
      return `The sub-task was not started: it asked for tools this conversation cannot use (${refusal.tools.join(', ')}). A sub-task may only use tools you can use.`;
    case 'too-deep':
      return `The sub-task was not started: sub-tasks may only be ${refusal.maxDepth} levels deep.`;
    case 'too-many-children':
      return `The sub-task was not started: at most ${refusal.maxParallel} sub-tasks may run at the same time; wait for one to finish.`;
    case 'budget-exhausted':
      return `The sub-task was not started: nothing is left of this turn's ${refusal.units.join(', ')} to hand to it.`;
    default:
      return assertNever(refusal, 'delegation refusal');
  }
}
