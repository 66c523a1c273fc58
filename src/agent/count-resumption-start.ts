import type { PendingApproval } from '../approvals/pending-approval.js';
import type { SuspendedTurn } from '../approvals/suspended-turn.js';
import type { TurnResumed } from '../events/inbound-event.js';
import { describeInterruptions } from '../journal/create-durable-intake.js';
import type { TurnDelivery, TurnSettings, TurnState } from './runtime-dependencies.js';

/** What a resumption may do now: `run` (this start is counted), `over` (nothing left to resume) or `parked`. */
export type ResumptionStart = 'run' | 'over' | 'parked';

/** The id of the event a parked resumption is kept as: the same for the same suspension, so parking it twice keeps one row. */
export function resumptionEventId(suspensionId: string): string {
  return `resume-${suspensionId}`;
}

/**
 * Counts one more start of a suspended turn's resumption, durably and before it runs, so a resumption that kills its
 * process cannot crash-loop: the count is in the approval's claim (the same compare-and-set that claims it, no extra
 * write) or, with no approval record (answered questions), in the suspension record. A resumption already started
 * `parkAfterInterruptions` times without finishing is not run again: it is parked (stored, audited, its chat told once)
 * and its suspension marked, so no sweep queues it until an operator retries it.
 */
export async function countResumptionStart(deps: TurnSettings & TurnState & TurnDelivery, suspended: SuspendedTurn, approval: PendingApproval | undefined): Promise<ResumptionStart> {
  const parkAfter = deps.parkAfterInterruptions ?? 2;
  if (approval) {
    const claim = await deps.approvals.claimResumption(approval.id, deps.instanceId, { parkAfter });
    if (claim.outcome !== 'exhausted') return claim.outcome === 'claimed' ? 'run' : 'over';
    await parkResumption(deps, suspended, claim.starts);
    return 'parked';
  }
  let start: ResumptionStart = 'over';
  let exhaustedAfter = 0;
  await deps.suspensions.update(suspended.id, (current) => {
    if (!current) return current;
    if (current.parkedAt !== undefined) {
      start = 'parked';
      return current;
    }
    const started = current.resumeStarts ?? 0;
    if (started >= parkAfter) {
      exhaustedAfter = started;
      return current;
    }
    start = 'run';
    return { ...current, resumeStarts: started + 1 };
  });
  if (exhaustedAfter === 0) return start;
  await parkResumption(deps, suspended, exhaustedAfter);
  return 'parked';
}

/**
 * Parks a resumption: first the parked-turn record (idempotent: its id comes from the suspension), then the mark on
 * the suspension. A crash in between finds the count exhausted again and parks it again, telling nobody twice.
 */
async function parkResumption(deps: TurnSettings & TurnState & TurnDelivery, suspended: SuspendedTurn, starts: number): Promise<void> {
  const { target } = suspended;
  const event: TurnResumed = {
    type: 'turn-resumed',
    id: resumptionEventId(suspended.id),
    traceId: suspended.traceId,
    at: deps.now().toISOString(),
    channel: target.channel,
    chatId: target.chatId,
    ...(target.threadId === undefined ? {} : { threadId: target.threadId }),
    ...(target.replyToMessageId === undefined ? {} : { messageId: target.replyToMessageId }),
    sessionKey: suspended.sessionKey,
    origin: suspended.origin,
    unattended: suspended.unattended,
    suspensionId: suspended.id,
  };
  deps.logger.error({ suspensionId: suspended.id, kind: suspended.kind, sessionKey: suspended.sessionKey, starts }, 'resumed turn parked: it was interrupted too often to run again');
  await deps.parkedTurns?.park({ event, attempts: starts, reason: describeInterruptions(starts) });
  const parkedAt = deps.now().toISOString();
  await deps.suspensions.update(suspended.id, (current) => (current ? { ...current, parkedAt } : current));
}
