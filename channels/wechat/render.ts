import { formatLocalTime } from '../../src/time/format-local-time.js';
import type { ApprovalCard } from '../../src/events/approval-card.js';
import { assertNever } from '../../src/events/assert-never.js';
import type { OutboundEvent } from '../../src/events/outbound-event.js';
import type { WechatMessages } from './wechat-strings.js';
import { markdownToPlainMessages, markdownToPlainText } from '../../src/markdown/render-plain-text.js';
import { splitText } from '../../src/markdown/split-text.js';

/** What rendering needs: the chat's language, the longest single message, and the zone for times. */
export type WechatRenderOptions = {
  readonly messages: WechatMessages;
  readonly splitAt: number;
  /** IANA zone the card's expiry is shown in; default UTC. */
  readonly timezone?: string;
  /** The target is a group, where only messages that @mention the bot are heard: prompts say so. */
  readonly inRoom?: boolean;
};

/** An approval card as WeChat text: what, arguments, who, risk, the labelled explanation, expiry, and the numbered reply. Pure. */
export function renderCard(card: ApprovalCard, messages: WechatMessages, timezone = 'UTC'): string {
  return [
    `【${messages.approvalTitle}】${messages.approvalId} ${card.approvalId}`,
    messages.wechatField(messages.approvalWhat, card.summary),
    messages.wechatField(messages.approvalArguments, '').trimEnd(),
    card.argumentsText,
    messages.wechatField(messages.approvalRequestedBy, card.requestedBy),
    messages.wechatField(messages.approvalRisk, messages.riskLevel(card.risk)),
    messages.wechatField(messages.approvalExplanationLabel, card.explanation),
    ...(card.reviewerNote ? [messages.wechatField(messages.approvalReviewerLabel, card.reviewerNote)] : []),
    messages.wechatField(messages.approvalExpires, formatLocalTime(card.expiresAt, timezone)),
    replyHint(card, messages),
  ].join('\n');
}

/** How to answer the card by number: its own labels when it has them (a budget card), else approve, always, deny. Pure. */
function replyHint(card: ApprovalCard, messages: WechatMessages): string {
  const labels = card.choiceLabels;
  if (labels?.once !== undefined && labels.deny !== undefined) return messages.budget.labelledReplyHint(card.approvalId, labels.once, labels.deny);
  return card.choices.includes('always') ? messages.numberedReplyHint(card.approvalId) : messages.wechatNoAlwaysHint(card.approvalId);
}

/** The text messages WeChat sends for an outbound event, in order; none for typing and drafts. Pure. */
export function renderForWechat(event: OutboundEvent, options: WechatRenderOptions): readonly string[] {
  const { messages, splitAt } = options;
  switch (event.type) {
    case 'reply':
      // Sent messages cannot be edited, so a draft has nothing to show; the final text follows.
      return event.kind === 'progress' ? [] : markdownToPlainMessages(event.text, splitAt);
    case 'approval-requested':
      return splitText(withRoomHint(renderCard(event.approval, messages, options.timezone), options), splitAt);
    case 'approval-resolved':
      return splitText(messages.wechatOutcomeLine(event.approvalId, event.outcome), splitAt);
    case 'question-asked':
      return splitText(withRoomHint([markdownToPlainText(event.text), ...event.options.map((option, index) => `${index + 1}. ${option}`), ...(event.options.length > 0 ? [messages.questionHint] : [])].join('\n'), options), splitAt);
    case 'action-answered':
      // Refusals are shown; a confirmation would repeat the outcome line that approval-resolved posts.
      return event.isAlert ? splitText(event.text, splitAt) : [];
    case 'typing':
      return [];
    case 'file':
      // The channel sends the file itself; only its caption is text.
      return event.caption ? splitText(event.caption, splitAt) : [];
    default:
      return assertNever(event, 'outbound event');
  }
}

function withRoomHint(text: string, options: WechatRenderOptions): string {
  return options.inRoom === true ? `${text}\n${options.messages.wechatMentionToReply}` : text;
}

