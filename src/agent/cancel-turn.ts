import type { SuspendedTurn } from '../approvals/suspended-turn.js';
import { assertNever } from '../events/assert-never.js';
import type { TurnCancellation, TurnCancelRequest } from '../events/turn-control.js';
import { editCards } from './decide-approval.js';
import type { RuntimeDependencies } from './runtime-dependencies.js';

/**
 * Stops the work of a session for whoever started it (an A2A task its caller cancelled), through the mechanisms that
 * already stop turns: the turn running in this process is aborted like one past `agent.turnTimeoutMs` (its model call
 * and tools see their signal fire; it sends nothing more), so is one running on another instance (`cancelBroadcast`,
 * cluster mode), and each turn suspended in the session is closed for good:
 * its pending approval becomes `cancelled` (audited, its cards edited so; a later press is refused), its question is
 * withdrawn, and its suspension is removed, so no sweep resumes it, after a restart either. A turn waiting for its
 * sub-tasks is left to them (their sessions are their own).
 */
export async function cancelTurn(deps: RuntimeDependencies, request: TurnCancelRequest): Promise<TurnCancellation> {
  const at = deps.now().getTime();
  const aborted = deps.runningTurns?.cancel(request.sessionKey, request.by, at) ?? 0;
  // In cluster mode the session's turn may run on another instance, or start there later: every instance hears it.
  await deps.cancelBroadcast?.publish({ ...request, at });
  const closed: string[] = [];
  for (const [id, suspended] of await deps.suspensions.entries()) {
    if (suspended.sessionKey !== request.sessionKey) continue;
    if (await closeSuspension(deps, suspended, request.by)) closed.push(id);
  }
  if (aborted > 0 || closed.length > 0) deps.logger.info({ sessionKey: request.sessionKey, by: request.by, aborted, closed }, 'turn cancelled');
  return { aborted, closed };
}

/** Closes one suspended turn of the cancelled session; false for a turn left waiting (on its sub-tasks). */
async function closeSuspension(deps: RuntimeDependencies, suspended: SuspendedTurn, by: string): Promise<boolean> {
  switch (suspended.kind) {
    case 'approval':
    case 'budget': {
      // The approval's close is the durable mark: a resumption that finds it `cancelled` drops the suspension (resumeTurn).
      const cancelled = await deps.approvals.cancel(suspended.id, by);
      await deps.approvals.finishResumption(suspended.id, deps.instanceId);
      await deps.suspensions.delete(suspended.id);
      if (cancelled !== undefined) await editCards(deps, cancelled);
      break;
    }
    case 'question':
      await deps.suspensions.delete(suspended.id);
      await deps.openQuestions.update(suspended.sessionKey, (current) => (current === suspended.id ? undefined : current));
      break;
    case 'delegation':
      return false;
    default:
      return assertNever(suspended, 'suspended turn');
  }
  deps.turnFinished({ causationId: suspended.causationId ?? suspended.id, sessionKey: suspended.sessionKey, status: 'cancelled', text: `cancelled by ${by}` });
  return true;
}
