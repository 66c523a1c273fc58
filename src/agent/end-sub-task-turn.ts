import type { SubTaskLink } from '../approvals/pending-sub-task.js';
import { assertNever } from '../events/assert-never.js';
import { describeStop } from '../budgets/describe-budget.js';
import type { RuntimeDependencies } from './runtime-dependencies.js';
import type { TurnOutcome } from './run-turn.js';
import { type SubTaskEnd, settleSubTask } from './settle-sub-task.js';
import type { TurnScope } from './turn-scope.js';
import type { DelegationAmounts } from '../policy/delegation-budget.js';

/** What a sub-task's turn that ended (not suspended) hands its parent: its answer, or why it stopped. Pure but for the wording. */
export function subTaskEndOf(deps: Pick<RuntimeDependencies, 'messagesFor' | 'budgets' | 'timezone'>, scope: Pick<TurnScope, 'channel'>, outcome: Exclude<TurnOutcome, { status: 'suspended' }>, timedOut: boolean): SubTaskEnd {
  switch (outcome.status) {
    case 'completed':
      return { status: 'completed', text: outcome.text.trim() === '' ? '(The sub-task returned an empty answer.)' : outcome.text };
    case 'stopped':
      return { status: 'failed', text: outcome.stop.kind === 'per-turn' ? `it reached its limit of ${outcome.stop.measure} (${outcome.stop.limit})` : describeStop(outcome.stop, deps.messagesFor(scope.channel), { currency: deps.budgets?.currency ?? '', timezone: deps.timezone }) };
    case 'model-failed':
      return { status: 'failed', text: timedOut ? 'it ran out of time' : `the model could not be reached (${outcome.failure.kind})` };
    default:
      return assertNever(outcome, 'sub-task outcome');
  }
}

/** Ends a sub-task's turn: its result goes to the waiting parent (which resumes once all its sub-tasks ended). */
export async function endSubTaskTurn(deps: RuntimeDependencies, scope: TurnScope & { readonly subTask: SubTaskLink }, outcome: Exclude<TurnOutcome, { status: 'suspended' }>, ending: { readonly timedOut: boolean; readonly left: DelegationAmounts }): Promise<void> {
  const end = subTaskEndOf(deps, scope, outcome, ending.timedOut);
  await settleSubTask(deps, scope.subTask, { ...end, left: ending.left });
  deps.turnFinished({ causationId: scope.causationId, sessionKey: scope.sessionKey, status: end.status === 'completed' ? 'completed' : 'failed', text: end.text });
}

/** Cancels a sub-task whose card a person denied: it does not go on, and its parent reads why (the refusal). */
export async function stopSubTask(deps: RuntimeDependencies, suspended: { readonly subTask: SubTaskLink; readonly sessionKey: string; readonly causationId?: string; readonly id: string; readonly call: { readonly name: string }; readonly allowanceLeft?: DelegationAmounts }, refusal: string): Promise<void> {
  const text = `it was stopped when its ${suspended.call.name} call was refused. ${refusal}`;
  await settleSubTask(deps, suspended.subTask, { status: 'failed', text, ...(suspended.allowanceLeft === undefined ? {} : { left: suspended.allowanceLeft }) });
  deps.turnFinished({ causationId: suspended.causationId ?? suspended.id, sessionKey: suspended.sessionKey, status: 'refused', text });
}
