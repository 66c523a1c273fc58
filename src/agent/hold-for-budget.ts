import type { SuspendedForBudget } from '../approvals/suspended-turn.js';
import type { BudgetStatus } from '../budgets/budget-check.js';
import { formatAmounts, formatReset, wordsOf } from '../budgets/describe-budget.js';
import type { ApprovalCard } from '../events/approval-card.js';
import type { ChatMessage } from '../model/chat-message.js';
import type { TurnDelivery, TurnGovernance, TurnSettings, TurnState } from './runtime-dependencies.js';
import type { TurnScope } from './turn-scope.js';
import { approvalParties, deliverApprovalCard, suspensionBase } from './approval-parties.js';

/** The tool name a budget card is audited and listed under (it is no tool: no registry call ever has this name). */
export const budgetCardName = 'budget';

/**
 * Holds a turn before its first model call because a budget's soft limit was crossed: stores the person's
 * message in the history, opens an approval (same records, routing, exactly-once decision and audit as a tool
 * call's) whose buttons are "continue" and "stop" for the period, marks the budget asked for this period and
 * shows the card. The decision resumes the turn (`resumeHeldTurn`).
 */
export async function holdForBudget(deps: TurnSettings & TurnState & TurnDelivery & TurnGovernance, scope: TurnScope, newMessages: readonly ChatMessage[], status: BudgetStatus): Promise<void> {
  const control = deps.budgets;
  if (!control) return;
  const messages = deps.messagesFor(scope.channel);
  const display = { currency: control.currency, timezone: deps.timezone };
  const words = wordsOf(status);
  const percent = Math.floor((status.used / status.limit) * 100);
  const summary = messages.budget.softLimitQuestion(words, percent, formatAmounts(status, messages, display));
  const argumentsText = [`${status.scope} ${status.id} · ${status.period} · ${status.unit}`, formatAmounts(status, messages, display), formatReset(status.resetsAt, deps.timezone)].join('\n');
  await deps.history.append(scope.sessionKey, newMessages);

  const parties = approvalParties(deps, scope);
  const { used: _used, limit: _limit, resetsAt: _resetsAt, ...ref } = status;
  const approval = await deps.approvals.open({
    toolName: budgetCardName,
    risk: 'write',
    input: { ...ref, used: status.used, limit: status.limit },
    argumentsHash: `budget:${ref.periodKey}|${ref.scope}|${ref.id}|${ref.unit}`,
    summary,
    reason: `soft limit ${percent} %`,
    ...parties.record,
    choices: ['once', 'deny'],
    budgetPeriod: status.period,
  });
  await control.markAsked(ref, approval.id);
  const traceparent = deps.tracer?.traceparent();
  const held: SuspendedForBudget = { ...suspensionBase(scope, approval.id, deps.now()), ...(traceparent === undefined ? {} : { traceparent }), kind: 'budget', budget: ref, resetsAt: status.resetsAt };
  await deps.suspensions.set(approval.id, held);

  const card: ApprovalCard = {
    approvalId: approval.id,
    toolName: budgetCardName,
    summary,
    argumentsText,
    risk: approval.risk,
    requestedBy: scope.userName,
    expiresAt: approval.expiresAt,
    explanation: messages.budget.softLimitExplanation,
    choices: approval.choices,
    choiceLabels: { once: `✅ ${messages.budget.continueLabel(status.period)}`, deny: `⏸ ${messages.budget.stopLabel(status.period)}` },
  };
  await deliverApprovalCard(deps, scope, parties.targets, card);
  deps.turnFinished({ causationId: scope.causationId, sessionKey: scope.sessionKey, status: 'suspended', text: summary });
}
