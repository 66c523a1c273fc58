import type { DecisionResult } from '../approvals/approvals-service.js';
import type { ApprovalChoice } from '../events/approval-card.js';
import { settleApproval } from './decide-approval.js';
import type { TurnDelivery, TurnSettings, TurnState } from './runtime-dependencies.js';

/** A decision taken in the web console by a logged-in person (identity from their session, never from the form). */
export type ConsoleDecisionInput = {
  readonly approvalId: string;
  readonly choice: ApprovalChoice;
  /** The person's id within `channel`, as the link they logged in with was issued. */
  readonly deciderId: string;
  readonly deciderChannel: string;
  readonly deciderName: string;
  readonly reason?: string;
};

/**
 * Decides an approval from the web console through the same service and state machine as the chat buttons
 * (exactly once, approvers only, audited with `via: console`), then edits every card and resumes the turn as a press
 * would. Refusals come back as values for the page to show; nothing is said in a chat about a refused attempt.
 */
export async function decideInConsole(deps: TurnSettings & TurnState & TurnDelivery, input: ConsoleDecisionInput): Promise<DecisionResult> {
  const result = await deps.approvals.decide({
    id: input.approvalId,
    deciderId: input.deciderId,
    deciderChannel: input.deciderChannel,
    deciderName: input.deciderName,
    choice: input.choice,
    reason: input.reason,
    via: 'console',
  });
  if (result.ok) await settleApproval(deps, result.approval);
  else if (result.code === 'expired' && result.approval) await settleApproval(deps, result.approval);
  else if (result.code === 'not-allowed') deps.logger.info({ approvalId: input.approvalId, deciderId: input.deciderId }, 'console decision refused: not an approver');
  return result;
}
