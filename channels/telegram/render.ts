import type { ApprovalCard, ApprovalChoice } from '../../src/events/approval-card.js';
import type { ReplyButton } from '../../src/events/outbound-event.js';
import { formatClock } from '../../src/i18n/format-clock.js';
import type { TelegramMessages } from './telegram-strings.js';
import { encodeCallbackData } from './callback-data.js';
import { escapeHtml } from './escape-html.js';
import { markdownToTelegramMessages, telegramMessageLimit } from './render-telegram-html.js';

/** One inline button. */
export type InlineButton = { readonly text: string; readonly callback_data: string };

/** Telegram's inline keyboard markup; an empty keyboard removes the buttons of an edited message. */
export type InlineKeyboard = { readonly inline_keyboard: readonly (readonly InlineButton[])[] };

/** A message ready to send: Telegram HTML and, optionally, buttons. */
export type RenderedMessage = { readonly html: string; readonly keyboard?: InlineKeyboard };

/** The markup that removes a message's buttons. */
export const noKeyboard: InlineKeyboard = { inline_keyboard: [] };

const buttonTextLimit = 60;

/** The model's Markdown as Telegram HTML messages, each within Telegram's limit. Pure. */
export function renderReply(markdown: string): string[] {
  return markdownToTelegramMessages(markdown);
}

/** An approval card: what, exact arguments, risk, requester, expiry, the labelled explanation, and its buttons. Pure. */
export function renderApprovalCard(card: ApprovalCard, messages: TelegramMessages, timezone: string): RenderedMessage {
  const head = [
    `🔐 <b>${escapeHtml(messages.approvalTitle)}</b> · ${escapeHtml(messages.approvalId)} <code>${escapeHtml(card.approvalId)}</code>`,
    `<b>${escapeHtml(messages.approvalWhat)}:</b> <code>${escapeHtml(card.toolName)}</code> — ${escapeHtml(cut(card.summary, 1000))}`,
    `<b>${escapeHtml(messages.approvalArguments)}:</b>`,
  ].join('\n');
  const tail = [
    `<b>${escapeHtml(messages.approvalRisk)}:</b> ${escapeHtml(messages.riskLevel(card.risk))} · <b>${escapeHtml(messages.approvalRequestedBy)}:</b> ${escapeHtml(card.requestedBy)} · <b>${escapeHtml(messages.approvalExpires)}:</b> ${escapeHtml(formatClock(card.expiresAt, timezone))}`,
    `<i>${escapeHtml(messages.approvalExplanationLabel)}: ${escapeHtml(cut(card.explanation, 400))}</i>`,
    ...(card.reviewerNote ? [`<i>${escapeHtml(messages.approvalReviewerLabel)}: ${escapeHtml(cut(card.reviewerNote, 300))}</i>`] : []),
  ].join('\n');
  // The arguments take what room is left: the card must fit one message, with room for the outcome line.
  const room = telegramMessageLimit - head.length - tail.length - 300;
  const argumentsHtml = `<pre>${escapeHtml(cutToEscapedLength(card.argumentsText, room))}</pre>`;
  return { html: `${head}\n${argumentsHtml}\n${tail}`, keyboard: approvalKeyboard(card.approvalId, card.choices, messages, card.choiceLabels) };
}

/** The buttons of an approval card: Approve and Always (when offered) on top, session, then Deny. Pure. */
export function approvalKeyboard(approvalId: string, choices: readonly ApprovalChoice[], messages: TelegramMessages, labels: ApprovalCard['choiceLabels'] = {}): InlineKeyboard {
  const button = (choice: ApprovalChoice, label: string): InlineButton => ({ text: labels[choice] ?? label, callback_data: encodeCallbackData({ kind: 'approval', approvalId, choice }) });
  const rows: InlineButton[][] = [
    [button('once', `✅ ${messages.approveOnce}`), ...(choices.includes('always') ? [button('always', messages.approveAlways)] : [])],
    choices.includes('session') ? [button('session', messages.approveSession)] : [],
    [button('deny', `❌ ${messages.deny}`)],
  ];
  return { inline_keyboard: rows.filter((row) => row.length > 0) };
}

/** A reply's buttons (the Forget button of each fact `/memory` lists), one row each. Pure. */
export function replyKeyboard(buttons: readonly ReplyButton[]): InlineKeyboard {
  return { inline_keyboard: buttons.slice(0, 100).map((button) => [{ text: cut(button.label, buttonTextLimit), callback_data: encodeCallbackData({ kind: 'memory-forget', factId: button.actionId }) }]) };
}

/** A settled card: its text with the outcome line below (or the outcome alone when the card text is gone). Pure. */
export function renderResolvedCard(cardHtml: string | undefined, outcome: string): string {
  const line = `<b>${escapeHtml(outcome)}</b>`;
  return cardHtml === undefined ? line : `${cardHtml}\n\n${line}`;
}

/** An ask_user question with one button per option (callback data carries the option's index). Pure. */
export function renderQuestion(questionId: string, text: string, options: readonly string[]): RenderedMessage {
  const html = escapeHtml(cut(text, telegramMessageLimit - 500));
  const rows = options.slice(0, 100).map((option, optionIndex) => [{ text: cut(option, buttonTextLimit), callback_data: encodeCallbackData({ kind: 'question', questionId, optionIndex }) }]);
  return { html, keyboard: { inline_keyboard: rows } };
}

/** A question after it was answered: its text and the answer, buttons gone. Pure. */
export function renderAnsweredQuestion(questionHtml: string | undefined, answerLine: string): string {
  const line = `<i>${escapeHtml(answerLine)}</i>`;
  return questionHtml === undefined ? line : `${questionHtml}\n\n${line}`;
}

function cut(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, Math.max(0, limit - 1))}…`;
}

function cutToEscapedLength(text: string, limit: number): string {
  if (escapeHtml(text).length <= limit) return text;
  let end = Math.max(0, limit - 1);
  while (end > 0 && escapeHtml(text.slice(0, end)).length > limit - 1) end = Math.floor(end * 0.9);
  return `${text.slice(0, end)}…`;
}
