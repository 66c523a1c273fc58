import type { PendingApproval } from '../approvals/pending-approval.js';
import type { SuspendedCall, SuspendedForBudget } from '../approvals/suspended-turn.js';
import { formatReset, wordsOf } from '../budgets/describe-budget.js';
import type { TurnResumed } from '../events/inbound-event.js';
import { continueTurn } from './continue-turn.js';
import { countResumptionStart } from './count-resumption-start.js';
import { resumeAfterSubTasks } from './resume-after-sub-tasks.js';
import { haveSubTasksEnded } from './settle-sub-task.js';
import { stopSubTask } from './end-sub-task-turn.js';
import type { RuntimeDependencies } from './runtime-dependencies.js';
import { deliverTurn } from './turn-flow.js';
import { scopeOfSuspendedTurn } from './scope-of-suspended-turn.js';
import { reportingTo, turnSpanAttributes, turnSpanName } from './turn-span-attributes.js';
import type { SpanAttributes } from '../telemetry/turn-tracer.js';

/**
 * Continues a suspended turn from the store (also in a new process after a restart): runs or refuses
 * the waiting call, runs the calls queued behind it, replaces their placeholder results in the
 * history, and lets the model finish the turn in the origin chat. Runs in the origin session's lane.
 *
 * Safe to run again after a crash at any point: the suspension is removed, and the approval marked
 * done, only once the turn has finished; calls that ran are found by the replay guard (by the
 * resumption's id and their position), never run twice. Each start is counted before it runs, and a
 * resumption interrupted too often is parked instead of run again (countResumptionStart).
 */
export async function resumeTurn(deps: RuntimeDependencies, event: TurnResumed): Promise<void> {
  try {
    await resume(deps, event.suspensionId);
  } finally {
    deps.resumeRequests.settled(event.suspensionId);
  }
}

async function resume(deps: RuntimeDependencies, suspensionId: string): Promise<void> {
  const suspended = await deps.suspensions.get(suspensionId);
  if (!suspended) {
    deps.logger.debug({ suspensionId }, 'nothing to resume (already resumed)');
    return;
  }
  if (suspended.parkedAt !== undefined) {
    deps.logger.debug({ suspensionId }, 'resumption parked; it waits for an operator (/parked retry)');
    return;
  }
  if (suspended.kind === 'budget') {
    await resumeHeldTurn(deps, suspended);
    return;
  }
  if (suspended.kind === 'delegation') {
    await resumeAfterSubTasks(deps, suspended);
    return;
  }
  let firstResult: string | undefined;
  let approvedOnce: string | undefined;
  let approvalRecord: PendingApproval | undefined;
  if (suspended.kind === 'approval') {
    const approval = await deps.approvals.get(suspended.id);
    approvalRecord = approval;
    if (approval?.status === 'pending') return;
    // Its turn was cancelled (a crash came between the approval's close and the suspension's removal): it never goes on.
    if (approval?.status === 'cancelled') {
      await dropCancelledSuspension(deps, suspended.id);
      return;
    }
    const start = await countResumptionStart(deps, suspended, approval);
    if (start === 'over') {
      // Its turn finished before; only the suspension's removal was lost.
      await deps.suspensions.delete(suspended.id);
      return;
    }
    if (start === 'parked') return;
    // A person's "deny" on a sub-task's card cancels the sub-task: its parent gets the failure and answers.
    if (approval?.status === 'denied' && suspended.subTask !== undefined) {
      await stopSubTask(deps, { ...suspended, subTask: suspended.subTask }, refusalText(approval));
      await deps.approvals.finishResumption(suspended.id, deps.instanceId);
      await deps.suspensions.delete(suspended.id);
      return;
    }
    if (approval?.status === 'approved') approvedOnce = approval.argumentsHash;
    else firstResult = refusalText(approval);
  } else {
    if (suspended.answer === undefined) return;
    if ((await countResumptionStart(deps, suspended, undefined)) !== 'run') return;
    // An MCP server's request: the call itself runs on (or again) with the answer, under the approval it already had.
    if (suspended.elicitation?.answer !== undefined) approvedOnce = suspended.elicitation.argumentsHash;
    else firstResult = `The person (${suspended.answeredBy ?? suspended.userName}) answered: ${suspended.answer}`;
    await deps.openQuestions.update(suspended.sessionKey, (current) => (current === suspended.id ? undefined : current));
  }

  const scope = scopeOfSuspendedTurn(deps, suspended);
  const continuation = { approvedOnce, settled: new Map(firstResult === undefined ? [] : [[suspended.call.id, firstResult]]) };
  if (deps.tracer === undefined) {
    await continueTurn(deps, suspended, scope, continuation);
    return;
  }
  const tracer = deps.tracer;
  const wait = waitSpan(suspended, approvalRecord);
  tracer.recordSpan({ ...wait, parent: suspended.traceparent, startTime: new Date(suspended.createdAt), endTime: wait.decidedAt ?? deps.now() });
  // The resumed turn is a child of the span that suspended it (stored with the suspension): one trace across restarts and instances.
  await tracer.inSpan({ name: turnSpanName(deps.botName), attributes: { ...turnSpanAttributes(deps.botName, scope), 'echo.suspension.id': suspended.id }, parent: suspended.traceparent }, (span) =>
    continueTurn(reportingTo(deps, span), suspended, scope, continuation),
  );
}

/** Queues every settled suspension whose turn has not finished: after a restart, a refused publish or a failed resumption. */
export async function resumeSettledTurns(deps: RuntimeDependencies): Promise<number> {
  let queued = 0;
  for (const [id, suspended] of await deps.suspensions.entries()) {
    if (deps.resumeRequests.isQueued(id)) continue;
    // Parked after repeated interruptions: it waits for an operator's retry, never for a sweep.
    if (suspended.parkedAt !== undefined) continue;
    if (suspended.kind === 'question' && suspended.answer === undefined) continue;
    // A turn waiting for its sub-tasks resumes when the last one ended (settleSubTask queues it).
    if (suspended.kind === 'delegation' && !haveSubTasksEnded(suspended)) continue;
    if (suspended.kind !== 'question') {
      const approval = await deps.approvals.get(id);
      if (approval?.status === 'pending') continue;
      if (approval?.status === 'cancelled') {
        await dropCancelledSuspension(deps, id);
        continue;
      }
      if (approval?.resumption?.state === 'done') {
        await deps.suspensions.delete(id);
        continue;
      }
    }
    const request = { suspensionId: id, sessionKey: suspended.sessionKey, target: suspended.target, traceId: suspended.traceId, origin: suspended.origin, unattended: suspended.unattended };
    if (await deps.resumeRequests.request(request)) queued += 1;
  }
  if (queued > 0) deps.logger.info({ queued }, 'settled approvals and answered questions queued to resume');
  return queued;
}

/**
 * Continues a turn a budget card held: "continue" runs it (the budget is not asked about again this period),
 * "stop" pauses the budget's scope until the reset, an expired card drops the held message and asks again next time.
 */
async function resumeHeldTurn(deps: RuntimeDependencies, held: SuspendedForBudget): Promise<void> {
  const approval = await deps.approvals.get(held.id);
  if (approval?.status === 'pending') return;
  if (approval?.status === 'cancelled') {
    await dropCancelledSuspension(deps, held.id);
    return;
  }
  const start = await countResumptionStart(deps, held, approval);
  if (start === 'over') {
    await deps.suspensions.delete(held.id);
    return;
  }
  if (start === 'parked') return;
  const scope = scopeOfSuspendedTurn(deps, held);
  if (approval?.status === 'approved') {
    await deps.budgets?.settleCard(held.budget, 'continued', approval.decidedBy);
    // Continued in the trace of the turn the card held (its span is stored with the hold), like an approved call.
    if (deps.tracer === undefined) await deliverTurn(deps, scope, []);
    else await deps.tracer.inSpan({ name: turnSpanName(deps.botName), attributes: { ...turnSpanAttributes(deps.botName, scope), 'echo.suspension.id': held.id }, parent: held.traceparent }, (span) => deliverTurn(reportingTo(deps, span), scope, []));
  } else {
    const stopped = approval?.status === 'denied';
    await deps.budgets?.settleCard(held.budget, stopped ? 'stopped' : 'expired', approval?.decidedBy);
    const messages = deps.messagesFor(scope.channel);
    const text = stopped ? messages.budget.stoppedUntilReset(wordsOf(held.budget), formatReset(held.resetsAt, deps.timezone)) : messages.budget.notContinued;
    const delivery = await deps.outbox.send({ type: 'reply', target: scope.target, text, kind: 'final', causationId: scope.causationId });
    deps.turnFinished({ causationId: scope.causationId, sessionKey: scope.sessionKey, status: 'refused', reason: 'budget', text, delivery });
  }
  if (approval) await deps.approvals.finishResumption(approval.id, deps.instanceId);
  await deps.suspensions.delete(held.id);
}

/** Ends the lifecycle of a suspension whose turn was cancelled: the approval is done, the suspension gone, nothing resumes. */
async function dropCancelledSuspension(deps: RuntimeDependencies, id: string): Promise<void> {
  await deps.approvals.finishResumption(id, deps.instanceId);
  await deps.suspensions.delete(id);
}

function refusalText(approval: PendingApproval | undefined): string {
  switch (approval?.status) {
    case 'denied':
      return `Not run: ${approval.decidedBy ?? 'a person'} denied this action${approval.denialReason ? ` (reason: ${approval.denialReason})` : ''}.`;
    case 'expired':
      return 'Not run: nobody approved this action in time (the approval expired).';
    case 'superseded':
      return 'Not run: the approval was superseded.';
    case 'cancelled':
      return `Not run: ${approval.decidedBy ?? 'the requester'} cancelled the request.`;
    case undefined:
      return 'Not run: the approval record is gone (it expired from the store).';
    default:
      return 'Not run.';
  }
}

/** The span of the wait for a person (an approval card or a question): its tool, how it was settled and by whom; never the arguments. */
function waitSpan(suspended: SuspendedCall, approval: PendingApproval | undefined): { readonly name: string; readonly attributes: SpanAttributes; readonly decidedAt?: Date } {
  if (suspended.kind === 'question') {
    return { name: `await_answer ${suspended.call.name}`, attributes: { 'gen_ai.tool.name': suspended.call.name, 'echo.suspension.id': suspended.id, 'echo.answered_by': suspended.answeredBy } };
  }
  return {
    name: `await_approval ${suspended.call.name}`,
    attributes: {
      'gen_ai.tool.name': suspended.call.name,
      'echo.approval.id': suspended.id,
      'echo.approval.status': approval?.status ?? 'gone',
      'echo.approval.decided_by': approval?.decidedBy,
      'echo.approval.risk': approval?.risk,
    },
    ...(approval?.decidedAt === undefined ? {} : { decidedAt: new Date(approval.decidedAt) }),
  };
}
