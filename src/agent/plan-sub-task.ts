import type { PendingSubTask } from '../approvals/pending-sub-task.js';
import { createShortId } from '../events/create-id.js';
import type { ToolCall } from '../model/chat-message.js';
import { type DelegationAmounts, type DelegationLimitsRequest, delegationUnits } from '../policy/delegation-budget.js';
import { delegationSessionKey } from '../policy/delegation-chain.js';
import { describeDelegationRefusal, planDelegation } from '../policy/plan-delegation.js';
import type { TurnDelegation } from './create-turn-delegation.js';
import type { TurnScope } from './turn-scope.js';

/** The name of the tool whose calls start sub-tasks. */
export const delegateToolName = 'delegate';

/** What a `delegate` call asked for, as its result's metadata carries it. */
export type SubTaskRequest = {
  readonly name: string;
  readonly instructions: string;
  readonly tools: readonly string[];
  readonly limits: DelegationLimitsRequest;
  /** The `delegate` call's execution id: the sub-task's parentExecutionId. */
  readonly executionId: string;
};

/** A sub-task either starts with its grant, or the model reads why not (the refusal names the tools). */
export type SubTaskPlan = { readonly kind: 'granted'; readonly subTask: PendingSubTask } | { readonly kind: 'refused'; readonly text: string };

/** The request a `delegate` call's result carries, or undefined for any other result. Pure. */
export function readSubTaskRequest(metadata: Readonly<Record<string, unknown>>): SubTaskRequest | undefined {
  const request = metadata.awaitDelegation as Partial<SubTaskRequest> | undefined;
  if (typeof request !== 'object' || request === null) return undefined;
  if (typeof request.name !== 'string' || typeof request.instructions !== 'string' || !Array.isArray(request.tools) || typeof request.executionId !== 'string') return undefined;
  return { name: request.name, instructions: request.instructions, tools: request.tools, limits: request.limits ?? {}, executionId: request.executionId };
}

/**
 * Narrows this turn's authority for one sub-task (planDelegation) before anything starts: its tools, depth,
 * fan-out (`running` sub-tasks already granted in this batch) and slice. Without delegation wired (a runtime
 * built without it) every sub-task is refused.
 */
export function planSubTask(input: {
  readonly scope: Pick<TurnScope, 'sessionKey' | 'visibleTools' | 'allowedTools' | 'delegationChain'>;
  readonly delegation: TurnDelegation | undefined;
  readonly call: ToolCall;
  readonly request: SubTaskRequest;
  readonly running: number;
  /** `delegate` calls of this batch not planned yet, this one included: a unit a call leaves out is shared among them. */
  readonly pending: number;
}): SubTaskPlan {
  const { scope, delegation, request } = input;
  if (delegation === undefined) return { kind: 'refused', text: 'The sub-task was not started: sub-tasks are not available here.' };
  delegation.catchUpClock();
  const plan = planDelegation(
    {
      executionId: request.executionId,
      agentId: delegation.agentId,
      visibleTools: scope.visibleTools,
      ...(scope.allowedTools === undefined ? {} : { allowedTools: scope.allowedTools }),
      chain: scope.delegationChain ?? [],
      runningChildren: input.running,
      budget: delegation.allowance,
    },
    { name: request.name, tools: request.tools, limits: withFairShares(request.limits, delegation.allowance.remaining(), input.pending) },
    delegation.limits,
  );
  if (plan.kind === 'refused') return { kind: 'refused', text: describeDelegationRefusal(plan.refusal) };
  const id = createShortId();
  return {
    kind: 'granted',
    subTask: {
      id,
      callId: input.call.id,
      name: request.name,
      instructions: request.instructions,
      allowedTools: plan.grant.allowedTools,
      slice: plan.grant.slice,
      chain: plan.grant.chain,
      sessionKey: delegationSessionKey({ parentSessionKey: scope.sessionKey, name: request.name, id }),
    },
  };
}

/**
 * A unit the model left out gets an even share of what is left among the sub-tasks of the batch still to plan
 * (all of it for the last), so the first of three side-by-side sub-tasks cannot take everything. Pure.
 */
export function withFairShares(limits: DelegationLimitsRequest, left: DelegationAmounts, pending: number): DelegationLimitsRequest {
  const sharers = Math.max(1, pending);
  const filled: Partial<Record<(typeof delegationUnits)[number], number>> = { ...limits };
  for (const unit of delegationUnits) filled[unit] ??= Math.max(1, Math.floor(left[unit] / sharers));
  return filled;
}
