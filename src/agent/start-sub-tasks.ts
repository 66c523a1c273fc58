import type { PendingSubTask } from '../approvals/pending-sub-task.js';
import type { SuspendedDelegation } from '../approvals/suspended-turn.js';
import type { SubTaskStarted } from '../events/inbound-event.js';
import type { CallSuspension } from './execute-calls.js';
import type { RuntimeDependencies } from './runtime-dependencies.js';
import { settleSubTask } from './settle-sub-task.js';
import type { TurnScope } from './turn-scope.js';

/** What every suspension of this turn records (suspensionBase plus its calls). */
type SuspensionBase = Omit<SuspendedDelegation, 'kind' | 'subTasks'>;

/**
 * Suspends a turn on its sub-tasks: the suspension (with every sub-task's grant) is saved first, then each
 * sub-task is journaled and queued as a turn of its own (`sub-task-started`, in its own session), and the chat
 * is told what runs and with which tools. A sub-task the bus refused ends at once as failed: the parent always
 * gets a result.
 */
export async function suspendForSubTasks(deps: RuntimeDependencies, scope: TurnScope, base: SuspensionBase, suspension: Extract<CallSuspension, { kind: 'delegation' }>): Promise<void> {
  const record: SuspendedDelegation = { ...base, kind: 'delegation', subTasks: suspension.subTasks };
  await deps.suspensions.set(record.id, record);
  const messages = deps.messagesFor(scope.channel);
  const publish = deps.startSubTask ?? ((event: SubTaskStarted) => deps.bus.publish(event));
  for (const subTask of suspension.subTasks) {
    const text = messages.subTaskWaiting(
      subTask.chain.map((link) => link.name),
      subTask.allowedTools,
    );
    await deps.outbox.send({ type: 'reply', target: scope.target, text, kind: 'message', causationId: scope.causationId });
    const event = subTaskEvent(record, subTask, deps.now());
    const published = await publish(event);
    if (!published.accepted) await settleSubTask(deps, { parentSuspensionId: record.id, subTaskId: subTask.id }, { status: 'failed', text: `it could not be started (${published.reason})`, left: subTask.slice });
  }
  const names = suspension.subTasks.map((subTask) => subTask.name).join(', ');
  deps.turnFinished({ causationId: scope.causationId, sessionKey: scope.sessionKey, status: 'suspended', text: `Waiting for sub-task(s) ${names}` });
}

/** The event that runs a sub-task's turn: the same id every time, so the journal keeps one row for it. Pure. */
export function subTaskEvent(parent: SuspendedDelegation, subTask: PendingSubTask, at: Date): SubTaskStarted {
  return {
    type: 'sub-task-started',
    id: `sub-task-${subTask.id}`,
    traceId: parent.traceId,
    at: at.toISOString(),
    channel: parent.target.channel,
    chatId: parent.target.chatId,
    sessionKey: subTask.sessionKey,
    origin: parent.origin,
    unattended: parent.unattended,
    parentSuspensionId: parent.id,
    subTaskId: subTask.id,
    parentSessionKey: parent.sessionKey,
  };
}

/**
 * Queues again the sub-tasks of a parent whose own event is run again after a crash (recoverSuspendedRun): the
 * crash may have come between saving the parent's suspension and journaling a sub-task. A sub-task that ended or
 * waits on a person is left alone; one queued twice runs once (runSubTask skips a sub-task that ended or waits).
 */
export async function requeueSubTasks(deps: Pick<RuntimeDependencies, 'startSubTask' | 'bus' | 'now' | 'suspensions' | 'logger'>, parent: SuspendedDelegation): Promise<void> {
  const waiting = await subTaskEventsWaitingOnPeople(deps);
  const publish = deps.startSubTask ?? ((event: SubTaskStarted) => deps.bus.publish(event));
  for (const subTask of parent.subTasks) {
    if (subTask.result !== undefined) continue;
    const event = subTaskEvent(parent, subTask, deps.now());
    if (waiting.has(event.id)) continue;
    const published = await publish({ ...event, redelivered: true });
    deps.logger.info({ parentSuspensionId: parent.id, subTaskId: subTask.id, accepted: published.accepted }, 'sub-task queued again after its parent was interrupted');
  }
}

/** The events (by id) of sub-task turns that wait on a person now. */
export async function subTaskEventsWaitingOnPeople(deps: Pick<RuntimeDependencies, 'suspensions'>): Promise<ReadonlySet<string>> {
  const entries = await deps.suspensions.entries();
  return new Set(entries.flatMap(([, suspended]) => (suspended.subTask !== undefined && suspended.causationId !== undefined ? [suspended.causationId] : [])));
}
