import { assertNever } from '../../src/events/assert-never.js';
import type { ApprovalCard } from '../../src/events/approval-card.js';
import type { OutboundEvent } from '../../src/events/outbound-event.js';
import type { Messages } from '../../src/i18n/messages.js';
import { markdownToPlainText } from '../../src/markdown/render-plain-text.js';

/** An approval card as terminal text: what, arguments, risk, who, expiry, explanation, and how to answer. */
export function renderCard(card: ApprovalCard, messages: Messages): string {
  return [
    `── ${messages.approvalTitle} (${messages.approvalId} ${card.approvalId}) ──`,
    `${messages.approvalWhat}: ${card.summary}`,
    `${messages.approvalArguments}:`,
    card.argumentsText,
    `${messages.approvalRisk}: ${messages.riskLevel(card.risk)}   ${messages.approvalRequestedBy}: ${card.requestedBy}   ${messages.approvalExpires}: ${card.expiresAt}`,
    `${messages.approvalExplanationLabel}: ${card.explanation}`,
    ...(card.reviewerNote ? [`${messages.approvalReviewerLabel}: ${card.reviewerNote}`] : []),
    card.choices.includes('always') ? messages.numberedReplyHint(card.approvalId) : `/approve ${card.approvalId} · /deny ${card.approvalId}`,
  ].join('\n');
}

/** The text the terminal prints for an outbound event, or undefined when it prints nothing. Pure. */
export function renderForTerminal(event: OutboundEvent, messages: Messages): string | undefined {
  switch (event.type) {
    case 'reply':
      return event.kind === 'progress' ? undefined : markdownToPlainText(event.text);
    case 'approval-requested':
      return renderCard(event.approval, messages);
    case 'approval-resolved':
      return `[${event.approvalId}] ${event.outcome}`;
    case 'question-asked':
      return [event.text, ...event.options.map((option, index) => `  ${index + 1}. ${option}`), ...(event.options.length > 0 ? [messages.questionHint] : [])].join('\n');
    case 'action-answered':
      return event.isAlert ? `! ${event.text}` : undefined;
    case 'typing':
      return undefined;
    case 'file':
      // The terminal shows no files: it names the one sent, which is on this machine already.
      return `[${messages.fileSentLabel}: ${event.path}]${event.caption ? ` ${event.caption}` : ''}`;
    default:
      return assertNever(event, 'outbound event');
  }
}
