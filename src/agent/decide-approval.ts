import type { PendingApproval } from '../approvals/pending-approval.js';
import type { ApprovalChoice } from '../events/approval-card.js';
import type { Target } from '../events/target.js';
import { formatClock } from '../i18n/format-clock.js';
import type { Messages } from '../i18n/messages.js';
import type { TurnDelivery, TurnSettings, TurnState } from './runtime-dependencies.js';

/** Who pressed, where, and what. */
export type DecisionInput = {
  readonly approvalId: string;
  readonly choice: ApprovalChoice;
  readonly deciderId: string;
  readonly deciderName: string;
  readonly reason?: string;
  /** Where to answer the person who decided. */
  readonly replyTarget: Target;
  readonly acknowledgementId?: string;
  /** The card the button was pressed on, when the decision came from a button. */
  readonly cardMessageId?: string;
};

/** The outcome line a card is edited into; a decision made in the web console says so. */
export function outcomeLine(approval: PendingApproval, messages: Messages, timezone: string): string {
  const line = chatOutcomeLine(approval, messages, timezone);
  return approval.decidedVia === 'console' && line !== '' ? `${line}${messages.console.decidedInConsole}` : line;
}

function chatOutcomeLine(approval: PendingApproval, messages: Messages, timezone: string): string {
  const decided = () => [approval.decidedBy ?? '?', formatClock(approval.decidedAt ?? approval.createdAt, timezone)] as const;
  if (approval.budgetPeriod !== undefined && approval.status === 'approved') return messages.budget.continuedBy(...decided(), approval.budgetPeriod);
  if (approval.budgetPeriod !== undefined && approval.status === 'denied') return messages.budget.stoppedBy(...decided(), approval.budgetPeriod);
  switch (approval.status) {
    case 'approved':
      return messages.approvedBy(approval.decidedBy ?? '?', formatClock(approval.decidedAt ?? approval.createdAt, timezone), approval.scope ?? 'once');
    case 'denied':
      return messages.deniedBy(approval.decidedBy ?? '?', formatClock(approval.decidedAt ?? approval.createdAt, timezone));
    case 'expired':
      return messages.expired;
    case 'superseded':
      return messages.superseded;
    case 'cancelled':
      return messages.cancelledBy(...decided());
    case 'pending':
      return '';
  }
}

/** Edits every card of a settled approval into its outcome line. */
export async function editCards(deps: Pick<TurnSettings & TurnDelivery, 'outbox' | 'messagesFor' | 'timezone'>, approval: PendingApproval): Promise<void> {
  const outcome = outcomeLine(approval, deps.messagesFor(approval.channel), deps.timezone);
  for (const card of approval.cards) {
    await deps.outbox.send({ type: 'approval-resolved', target: card.target, approvalId: approval.id, outcome, cardMessageId: card.messageId });
  }
}

/** Edits every card of a settled approval into its outcome line and wakes the suspended turn in its own session. */
export async function settleApproval(deps: TurnSettings & TurnState & TurnDelivery, approval: PendingApproval): Promise<void> {
  await editCards(deps, approval);
  // A refused request is not lost: the suspended turn stays in the store and the next sweep queues it.
  const suspended = await deps.suspensions.get(approval.id);
  if (!suspended) return;
  await deps.resumeRequests.request({ suspensionId: approval.id, sessionKey: suspended.sessionKey, target: suspended.target, traceId: suspended.traceId, origin: suspended.origin, unattended: suspended.unattended });
}

/** Takes a decision exactly once, or tells the person why not; only configured approvers (or the requester) may decide. */
export async function decideApproval(deps: TurnSettings & TurnState & TurnDelivery, input: DecisionInput): Promise<void> {
  const messages = deps.messagesFor(input.replyTarget.channel);
  const answer = (text: string, isAlert: boolean) =>
    deps.outbox.send({ type: 'action-answered', target: input.replyTarget, acknowledgementId: input.acknowledgementId, text, isAlert });

  let result: Awaited<ReturnType<typeof deps.approvals.decide>>;
  try {
    result = await deps.approvals.decide({
      id: input.approvalId,
      deciderId: input.deciderId,
      deciderChannel: input.replyTarget.channel,
      deciderName: input.deciderName,
      choice: input.choice,
      reason: input.reason,
    });
  } catch (error) {
    // Not saved means not decided: the person is told so, never shown an outcome that did not happen.
    deps.logger.error({ err: error, approvalId: input.approvalId }, 'approval decision could not be saved');
    await answer(messages.decisionNotSaved, true);
    return;
  }
  if (result.ok) {
    const line = outcomeLine(result.approval, messages, deps.timezone);
    const cardIsHere = result.approval.cards.some((card) => card.target.channel === input.replyTarget.channel && card.target.chatId === input.replyTarget.chatId);
    // A press is acknowledged on its button; a typed decision elsewhere than the card gets the outcome as a reply,
    // since the card's edit happens in a chat the decider may not be looking at.
    if (input.acknowledgementId !== undefined) await answer(line, false);
    else if (!cardIsHere) await deps.outbox.send({ type: 'reply', target: input.replyTarget, text: line, kind: 'message' });
    await settleApproval(deps, result.approval);
    // A card shown by a process that died before attaching it to the approval is edited here, from its press.
    const pressed = input.cardMessageId;
    if (pressed !== undefined && !result.approval.cards.some((card) => card.messageId === pressed && card.target.channel === input.replyTarget.channel && card.target.chatId === input.replyTarget.chatId)) {
      await deps.outbox.send({ type: 'approval-resolved', target: input.replyTarget, approvalId: result.approval.id, outcome: outcomeLine(result.approval, deps.messagesFor(result.approval.channel), deps.timezone), cardMessageId: pressed });
    }
    return;
  }
  switch (result.code) {
    case 'not-found':
      await answer(messages.approvalNotFound(input.approvalId), true);
      return;
    case 'not-allowed':
      deps.logger.info({ approvalId: input.approvalId, deciderId: input.deciderId }, 'approval decision refused: not an approver');
      await answer(messages.onlyApprovers, true);
      return;
    case 'choice-not-offered':
      await answer(messages.choiceNotOffered, true);
      return;
    case 'already-decided':
      // A card whose turn was cancelled says so itself: the press changes nothing and nothing will run.
      if (result.approval?.status === 'cancelled') await answer(outcomeLine(result.approval, messages, deps.timezone), true);
      else await answer(messages.alreadyDecided(result.approval ? outcomeLine(result.approval, messages, deps.timezone) : '?'), true);
      // A button pressed on a card that is decided: its edit was lost (a crash after the decision was saved, or a
      // failed edit). The press puts the outcome on the card it came from; an edit to the same text changes nothing.
      if (input.acknowledgementId !== undefined && result.approval) await editCardsIn(deps, result.approval, input.replyTarget);
      return;
    case 'expired':
      await answer(messages.expired, true);
      if (result.approval) await settleApproval(deps, result.approval);
      return;
  }
}

/** Edits the approval's cards shown in one chat into the outcome line. */
async function editCardsIn(deps: TurnSettings & TurnState & TurnDelivery, approval: PendingApproval, chat: Target): Promise<void> {
  const outcome = outcomeLine(approval, deps.messagesFor(approval.channel), deps.timezone);
  for (const card of approval.cards) {
    if (card.target.channel !== chat.channel || card.target.chatId !== chat.chatId || card.messageId === undefined) continue;
    await deps.outbox.send({ type: 'approval-resolved', target: card.target, approvalId: approval.id, outcome, cardMessageId: card.messageId });
  }
}

/** Expires overdue approvals: edits their cards and resumes their turns with a denial the model reads. */
export async function sweepExpiredApprovals(deps: TurnSettings & TurnState & TurnDelivery): Promise<number> {
  const expired = await deps.approvals.expireDue(deps.now());
  for (const approval of expired) await settleApproval(deps, approval);
  return expired.length;
}
