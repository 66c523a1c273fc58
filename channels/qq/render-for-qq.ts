import { formatLocalTime } from '../../src/time/format-local-time.js';
import type { ApprovalCard } from '../../src/events/approval-card.js';
import { assertNever } from '../../src/events/assert-never.js';
import type { OutboundEvent } from '../../src/events/outbound-event.js';
import { markdownToPlainMessages, markdownToPlainText } from '../../src/markdown/render-plain-text.js';
import { splitText } from '../../src/markdown/split-text.js';
import type { QqMessages } from './qq-strings.js';
import type { QqScene } from './to-inbound-message.js';

/** What rendering needs: the strings (the core's and QQ's), the longest message, the scene, and the zone for times. */
export type QqRenderOptions = {
  readonly messages: QqMessages;
  readonly messageChars: number;
  readonly scene: QqScene;
  readonly timezone?: string;
};

// The tool whose card is the moment a scheduled task is created: the person learns there what QQ allows.
const scheduleToolName = 'schedule_task';

/** An approval card as QQ text, answered with numbers; a schedule's card says what QQ lets the bot send later. Pure. */
export function renderQqCard(card: ApprovalCard, options: QqRenderOptions): string {
  const { messages } = options;
  const field = messages.qqField;
  const labels = card.choiceLabels;
  const hint =
    labels?.once !== undefined && labels.deny !== undefined
      ? messages.budget.labelledReplyHint(card.approvalId, labels.once, labels.deny)
      : card.choices.includes('always')
        ? messages.numberedReplyHint(card.approvalId)
        : messages.qqNoAlwaysHint(card.approvalId);
  return [
    `【${messages.approvalTitle}】${messages.approvalId} ${card.approvalId}`,
    field(messages.approvalWhat, card.summary),
    field(messages.approvalArguments, '').trimEnd(),
    card.argumentsText,
    field(messages.approvalRequestedBy, card.requestedBy),
    field(messages.approvalRisk, messages.riskLevel(card.risk)),
    field(messages.approvalExplanationLabel, card.explanation),
    ...(card.reviewerNote ? [field(messages.approvalReviewerLabel, card.reviewerNote)] : []),
    field(messages.approvalExpires, formatLocalTime(card.expiresAt, options.timezone ?? 'UTC')),
    ...(card.toolName === scheduleToolName ? [messages.qqScheduleLimits(options.scene)] : []),
    hint,
  ].join('\n');
}

/** The texts QQ sends for an outbound event, in order; none for typing and drafts (sent messages cannot be edited). Pure. */
export function renderForQq(event: OutboundEvent, options: QqRenderOptions): readonly string[] {
  const split = (text: string) => splitText(text, options.messageChars);
  switch (event.type) {
    case 'reply':
      // Each message is one of the few replies QQ allows per message: drafts are not worth one.
      return event.kind === 'progress' ? [] : markdownToPlainMessages(event.text, options.messageChars);
    case 'approval-requested':
      return split(renderQqCard(event.approval, options));
    case 'approval-resolved':
      return split(options.messages.qqOutcomeLine(event.approvalId, event.outcome));
    case 'question-asked':
      return split([markdownToPlainText(event.text), ...event.options.map((option, index) => `${index + 1}. ${option}`), ...(event.options.length > 0 ? [options.messages.questionHint] : [])].join('\n'));
    case 'action-answered':
      // Refusals are shown; a confirmation would repeat the outcome line.
      return event.isAlert ? split(event.text) : [];
    case 'typing':
      return [];
    case 'file':
      return split([options.messages.qqFileNotSent(event.fileName), ...(event.caption ? [event.caption] : [])].join('\n'));
    default:
      return assertNever(event, 'outbound event');
  }
}

