import type { SuspendedDelegation } from '../approvals/suspended-turn.js';
import { continueTurn } from './continue-turn.js';
import { countResumptionStart } from './count-resumption-start.js';
import type { RuntimeDependencies } from './runtime-dependencies.js';
import { scopeOfSuspendedTurn } from './scope-of-suspended-turn.js';
import { allowanceAfterSubTasks, haveSubTasksEnded, subTaskResultText } from './settle-sub-task.js';
import { reportingTo, turnSpanAttributes, turnSpanName } from './turn-span-attributes.js';

/**
 * Continues a turn whose sub-tasks all ended: their answers (or failures) replace the placeholders of its
 * `delegate` calls, the calls queued behind them run, and the model finishes the turn in the chat. A start is
 * counted first (a resumption that keeps killing its process is parked); the suspension goes only once the
 * turn answered, so a crash resumes it again and the replay guard keeps its calls from running twice.
 */
export async function resumeAfterSubTasks(deps: RuntimeDependencies, suspended: SuspendedDelegation): Promise<void> {
  if (!haveSubTasksEnded(suspended)) {
    deps.logger.debug({ suspensionId: suspended.id }, 'sub-tasks still running; the last to end resumes the turn');
    return;
  }
  if ((await countResumptionStart(deps, suspended, undefined)) !== 'run') return;
  const settled = new Map(suspended.subTasks.map((subTask) => [subTask.callId, subTaskResultText(subTask)] as const));
  const allowanceLeft = allowanceAfterSubTasks(suspended);
  const scope = { ...scopeOfSuspendedTurn(deps, suspended), ...(allowanceLeft === undefined ? {} : { allowanceLeft }) };
  const continuation = { approvedOnce: undefined, settled };
  if (deps.tracer === undefined) return continueTurn(deps, suspended, scope, continuation);
  await deps.tracer.inSpan({ name: turnSpanName(deps.botName), attributes: { ...turnSpanAttributes(deps.botName, scope), 'echo.suspension.id': suspended.id }, parent: suspended.traceparent }, (span) =>
    continueTurn(reportingTo(deps, span), suspended, scope, continuation),
  );
}
