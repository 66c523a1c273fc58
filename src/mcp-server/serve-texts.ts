import type { PendingApproval } from '../approvals/pending-approval.js';
import type { ApprovalCard } from '../events/approval-card.js';
import type { ServeCaller } from './serve-caller.js';

/** Who raised it, as every card and message shows it: the client and the key. Pure. */
function raisedBy(caller: ServeCaller): string {
  return `${caller.identity.client} (MCP key ${caller.key.name})`;
}

/** The text of an ask_person question in the chat: who asks, the question, and how to answer without buttons. Pure. */
export function describeQuestion(caller: ServeCaller, question: string, options: readonly string[]): string {
  const how = options.length === 0 ? 'Reply in this chat to answer.' : 'Pick an answer (or reply with its number).';
  return `❓ ${raisedBy(caller)} asks:\n\n${question}\n\n${how}`;
}

/** The card of a request_approval call: the caller's action and risk, approve or deny, and which key and client raised it. Pure. */
export function describeApprovalCard(caller: ServeCaller, approval: PendingApproval): ApprovalCard {
  return {
    approvalId: approval.id,
    toolName: 'request_approval',
    summary: approval.summary,
    argumentsText: `raised by ${raisedBy(caller)} for ${caller.key.user}; the caller runs the action itself once approved`,
    risk: approval.risk,
    requestedBy: raisedBy(caller),
    expiresAt: approval.expiresAt,
    explanation: `An agent outside this chat (${raisedBy(caller)}) asks before it acts; echo-agent runs nothing itself.`,
    choices: approval.choices,
    choiceLabels: { once: 'Approve', deny: 'Deny' },
  };
}

/** A notify message, prefixed with who sent it. Pure. */
export function describeNotification(caller: ServeCaller, text: string): string {
  return `🔔 ${raisedBy(caller)}:\n\n${text}`;
}
