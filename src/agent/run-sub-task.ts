import type { PendingSubTask } from '../approvals/pending-sub-task.js';
import type { SuspendedDelegation } from '../approvals/suspended-turn.js';
import type { SubTaskStarted } from '../events/inbound-event.js';
import type { ChatMessage } from '../model/chat-message.js';
import { toolsVisibleTo } from '../policy/plan-delegation.js';
import type { RuntimeDependencies } from './runtime-dependencies.js';
import { haveSubTasksEnded, requestParentResumption } from './settle-sub-task.js';
import { subTaskEventsWaitingOnPeople } from './start-sub-tasks.js';
import { deliverTurn } from './turn-flow.js';
import type { TurnScope } from './turn-scope.js';
import { reportingTo, turnSpanAttributes, turnSpanName } from './turn-span-attributes.js';

/**
 * Runs a sub-task's turn: in its own session, as the parent's person and chat, seeing only its granted tools
 * (the registry refuses the rest), within its slice. Its answer or failure goes to the parent (settleSubTask),
 * its cards to the parent's approvers. A sub-task that ended already (a re-run after a crash) only makes sure
 * its parent resumes; one whose parent no longer waits does nothing.
 */
export async function runSubTask(deps: RuntimeDependencies, event: SubTaskStarted): Promise<void> {
  const parent = await deps.suspensions.get(event.parentSuspensionId);
  const subTask = parent?.kind === 'delegation' ? parent.subTasks.find((candidate) => candidate.id === event.subTaskId) : undefined;
  if (parent?.kind !== 'delegation' || subTask === undefined) {
    deps.logger.info({ eventId: event.id, parentSuspensionId: event.parentSuspensionId }, 'sub-task whose parent no longer waits; not run');
    return;
  }
  if (subTask.result !== undefined) {
    if (haveSubTasksEnded(parent)) await requestParentResumption(deps, parent);
    return;
  }
  // Queued twice (its parent's recovery and the journal): a run that left it waiting on a person owns it.
  if ((await subTaskEventsWaitingOnPeople(deps)).has(event.id)) {
    deps.logger.info({ eventId: event.id }, 'sub-task already waits on a person; not run again');
    return;
  }
  const scope = scopeOfSubTask(deps, { parent, subTask, event });
  const message: ChatMessage = { role: 'user', content: `[Sub-task ${subTask.name}: a task handed to you by the assistant of ${parent.userName}. Do it and answer with the result.]\n${subTask.instructions}` };
  if (deps.tracer === undefined) return deliverTurn(deps, scope, [message]);
  // A child of the span of the parent turn that delegated: one trace from the person's message to the sub-task's tools.
  const attributes = { ...turnSpanAttributes(deps.botName, scope), 'echo.sub_task.name': subTask.name, 'echo.parent_suspension.id': parent.id };
  return deps.tracer.inSpan({ name: turnSpanName(deps.botName), attributes, parent: parent.traceparent }, (span) => deliverTurn(reportingTo(deps, span), scope, [message]));
}

/** The scope of a sub-task's turn: the parent's person, chat and tool selection, narrowed to the grant. Pure but for the services. */
export function scopeOfSubTask(deps: Pick<RuntimeDependencies, 'visibleToolsFor' | 'servicesFor'>, input: { readonly parent: SuspendedDelegation; readonly subTask: PendingSubTask; readonly event: SubTaskStarted }): TurnScope {
  const { parent, subTask, event } = input;
  return {
    traceId: parent.traceId,
    sessionKey: subTask.sessionKey,
    target: parent.target,
    origin: parent.origin,
    unattended: parent.unattended,
    userId: parent.userId,
    userName: parent.userName,
    channel: parent.target.channel,
    chatId: parent.target.chatId,
    isGroup: parent.isGroup ?? false,
    ...(parent.jobId === undefined ? {} : { jobId: parent.jobId }),
    ...(parent.billedTo === undefined ? {} : { billedTo: parent.billedTo }),
    causationId: event.id,
    ...(parent.toolScope === undefined ? {} : { toolScope: parent.toolScope }),
    visibleTools: toolsVisibleTo({ visibleTools: deps.visibleToolsFor(parent.toolScope ?? parent.target.channel), allowedTools: subTask.allowedTools }),
    allowedTools: subTask.allowedTools,
    delegationChain: subTask.chain,
    subTask: { parentSuspensionId: parent.id, subTaskId: subTask.id, slice: subTask.slice },
    runKey: event.id,
    callCounter: { next: 0 },
    services: deps.servicesFor({ sessionKey: subTask.sessionKey, target: parent.target, userId: parent.userId }),
    // A re-run after a crash may find the calls its first run made recorded by the replay guard.
    traceStartedHere: event.redelivered !== true,
  };
}
