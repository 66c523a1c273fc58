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
    const event: SubTaskStarted = {
      type: 'sub-task-started',
      // The same id on a second start of the same sub-task: the journal keeps one row.
      id: `sub-task-${subTask.id}`,
      traceId: scope.traceId,
      at: deps.now().toISOString(),
      channel: scope.channel,
      chatId: scope.chatId,
      sessionKey: subTask.sessionKey,
      origin: scope.origin,
      unattended: scope.unattended,
      parentSuspensionId: record.id,
      subTaskId: subTask.id,
      parentSessionKey: scope.sessionKey,
    };
    const published = await publish(event);
    if (!published.accepted) await settleSubTask(deps, { parentSuspensionId: record.id, subTaskId: subTask.id }, { status: 'failed', text: `it could not be started (${published.reason})` });
  }
  const names = suspension.subTasks.map((subTask) => subTask.name).join(', ');
  deps.turnFinished({ causationId: scope.causationId, sessionKey: scope.sessionKey, status: 'suspended', text: `Waiting for sub-task(s) ${names}` });
}
