import type { SubTaskLink } from '../approvals/pending-sub-task.js';
import type { SuspendedDelegation } from '../approvals/suspended-turn.js';
import type { TurnDelivery, TurnState } from './runtime-dependencies.js';
import type { DelegationAmounts } from '../policy/delegation-budget.js';
import { delegationUnits } from '../policy/delegation-budget.js';
import { unbounded } from './create-turn-delegation.js';

/** How a sub-task's turn ended, as its parent's `delegate` call reads it. */
export type SubTaskEnd = {
  readonly status: 'completed' | 'failed';
  readonly text: string;
  /** What it had left of its slice (given back to the parent); absent: nothing is given back. */
  readonly left?: DelegationAmounts;
};

/** True once every sub-task of a waiting parent has ended. Pure. */
export function haveSubTasksEnded(parent: Pick<SuspendedDelegation, 'subTasks'>): boolean {
  return parent.subTasks.every((subTask) => subTask.result !== undefined);
}

/**
 * What a parent has to hand out when it resumes: what it had left when it suspended plus what its sub-tasks did not
 * use of their slices (settleSlice's rule: the used part stays spent). Undefined when the parent recorded nothing. Pure.
 */
export function allowanceAfterSubTasks(parent: Pick<SuspendedDelegation, 'allowanceLeft' | 'subTasks'>): DelegationAmounts | undefined {
  const left = parent.allowanceLeft;
  if (left === undefined) return undefined;
  const total: Record<(typeof delegationUnits)[number], number> = { ...left };
  for (const subTask of parent.subTasks) {
    for (const unit of delegationUnits) total[unit] = Math.min(unbounded, total[unit] + Math.min(subTask.slice[unit], Math.max(0, subTask.unused?.[unit] ?? 0)));
  }
  return total;
}

/** The tool result a parent's `delegate` call gets from its sub-task's end. Pure. */
export function subTaskResultText(subTask: { readonly name: string; readonly status?: 'completed' | 'failed'; readonly result?: string }): string {
  if (subTask.status === 'failed') return `Error (sub-task failed): sub-task ${subTask.name} did not finish: ${subTask.result ?? 'no result'}`;
  return `Sub-task ${subTask.name} answered:\n${subTask.result ?? ''}`;
}

/**
 * Records a sub-task's end in its parent's suspension (the first end counts: a re-run after a crash changes
 * nothing) and, once every sibling has ended, queues the parent's resumption. A parent that no longer waits
 * (it resumed already) is left alone. Safe to call again.
 */
export async function settleSubTask(deps: Pick<TurnState, 'suspensions'> & Pick<TurnDelivery, 'resumeRequests' | 'logger'>, link: Pick<SubTaskLink, 'parentSuspensionId' | 'subTaskId'>, end: SubTaskEnd): Promise<void> {
  const updated = await deps.suspensions.update(link.parentSuspensionId, (current) => {
    if (current?.kind !== 'delegation') return current;
    const subTasks = current.subTasks.map((subTask) => (subTask.id === link.subTaskId && subTask.result === undefined ? { ...subTask, result: end.text, status: end.status, ...(end.left === undefined ? {} : { unused: end.left }) } : subTask));
    return { ...current, subTasks };
  });
  deps.logger.info({ parentSuspensionId: link.parentSuspensionId, subTaskId: link.subTaskId, status: end.status }, 'sub-task ended');
  if (updated?.kind !== 'delegation' || !haveSubTasksEnded(updated)) return;
  await requestParentResumption(deps, updated);
}

/** Queues the resumption of a parent whose sub-tasks all ended (the sweep queues it again if the bus refuses). */
export async function requestParentResumption(deps: Pick<TurnDelivery, 'resumeRequests'>, parent: SuspendedDelegation): Promise<void> {
  await deps.resumeRequests.request({ suspensionId: parent.id, sessionKey: parent.sessionKey, target: parent.target, traceId: parent.traceId, origin: parent.origin, unattended: parent.unattended });
}
