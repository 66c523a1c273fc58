import type { ApprovalCard } from '../events/approval-card.js';
import type { InboundEvent } from '../events/inbound-event.js';
import { deliverApprovalCard } from './approval-parties.js';
import { formatArguments } from './format-arguments.js';
import { requeueSubTasks } from './start-sub-tasks.js';
import type { TurnDelivery, TurnGovernance, TurnState } from './runtime-dependencies.js';

/**
 * A re-run of an event whose first run already suspended its turn: the process that ran it died after
 * saving the suspension (and showing the card, most often) but before its job or journal entry was done.
 * The turn now waits on that suspension, and its decision or answer resumes it: running the event again
 * would ask the model again, raise a second approval and leave the first one's continuation reading a
 * history that moved on. So nothing runs again; only an approval card that may never have got out (none
 * is attached to the approval) is shown again, and sub-tasks it started are queued again (the crash may have come
 * before they were journaled). True when the event's turn waits on a suspension.
 */
export async function recoverSuspendedRun(deps: TurnState & TurnDelivery & TurnGovernance, event: InboundEvent): Promise<boolean> {
  // Re-runs are rare (a process died mid-turn), so a scan of the waiting turns costs nothing on the hot path.
  const found = (await deps.suspensions.entries()).find(([, suspended]) => suspended.causationId === event.id);
  if (!found) return false;
  const [id, suspended] = found;
  deps.logger.info({ eventId: event.id, suspensionId: id, kind: suspended.kind }, 're-run of an event whose turn already waits on a person; not run again');
  if (suspended.kind === 'delegation') {
    await requeueSubTasks(deps, suspended);
    return true;
  }
  if (suspended.kind !== 'approval') return true;
  const approval = await deps.approvals.get(id);
  if (approval?.status !== 'pending' || approval.cards.length > 0) return true;
  const argumentsText = formatArguments(approval.input);
  const explanation = await deps.explainRisk({ toolName: approval.toolName, summary: approval.summary, argumentsText, risk: approval.risk });
  const card: ApprovalCard = {
    approvalId: approval.id,
    toolName: approval.toolName,
    summary: approval.summary,
    argumentsText,
    risk: approval.risk,
    requestedBy: suspended.userName,
    expiresAt: approval.expiresAt,
    explanation,
    choices: approval.choices,
  };
  const route = deps.approvalRouteFor({ channel: suspended.target.channel, requesterId: suspended.userId, origin: suspended.target, unattended: suspended.unattended });
  await deliverApprovalCard(deps, { causationId: event.id, traceId: suspended.traceId }, route.targets.length > 0 ? route.targets : [suspended.target], card);
  return true;
}
