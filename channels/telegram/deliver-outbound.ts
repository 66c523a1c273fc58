import { assertNever } from '../../src/events/assert-never.js';
import type { ActionAnswered, ApprovalRequested, ApprovalResolved, Delivery, OutboundEvent, QuestionAsked, ReplySent } from '../../src/events/outbound-event.js';
import type { TelegramMessages } from './telegram-strings.js';
import type { Logger } from '../../src/logging/create-logger.js';
import type { KeyValueNamespace } from '../../src/store/key-value-namespace.js';
import type { DraftStreams } from './draft-streams.js';
import { escapeHtml } from './escape-html.js';
import { noKeyboard, renderAnsweredQuestion, renderApprovalCard, renderQuestion, renderReply, renderResolvedCard, replyKeyboard } from './render.js';
import { sendFile } from './send-file.js';
import type { TelegramSender } from './telegram-sender.js';
import type { TelegramTransport } from './telegram-transport.js';

/** A question button press waiting for its answer, so the question can lose its buttons once answered. */
export type PressedQuestion = { readonly chatId: string; readonly messageId: number; readonly questionId: string };

/** What delivering outbound events needs. */
export type OutboundDeliveryOptions = {
  /** The channel's name, as the core hands it over. */
  readonly channel: string;
  readonly transport: TelegramTransport;
  readonly sender: TelegramSender;
  readonly drafts: DraftStreams;
  /** Card and question texts by `approval:<id>:<chatId>` / `question:<id>:<chatId>`, for the edit that settles them. */
  readonly sentTexts: KeyValueNamespace<string>;
  readonly text: TelegramMessages;
  readonly timezone: string;
  readonly streaming: boolean;
  readonly logger: Logger;
};

/** Delivers outbound events to Telegram. */
export interface OutboundDelivery {
  send(event: OutboundEvent): Promise<Delivery>;
  /** Remembers a question press (by callback query id) until its answer arrives. */
  rememberQuestionPress(acknowledgementId: string, press: PressedQuestion): void;
}

const sentTextTtlMs = 8 * 24 * 60 * 60 * 1000;
const callbackAnswerLimit = 200;

/** Creates the outbound side of the channel. */
/** How long to stop sending typing indicators after the server showed it does not have sendChatAction. */
const typingRetryAfterMs = 10 * 60 * 1000;

export function createOutboundDelivery(options: OutboundDeliveryOptions): OutboundDelivery {
  const { sender, transport, text } = options;
  const pressedQuestions = new Map<string, PressedQuestion>();
  let typingUnsupportedUntil = 0;

  async function reply(event: ReplySent): Promise<Delivery> {
    if (event.kind === 'progress') {
      // The draft is edited on its own schedule; accepting the text is all this call does.
      if (options.streaming) options.drafts.update(event.target, event.text);
      return { ok: true };
    }
    const draftId = event.kind === 'final' ? await options.drafts.finish(event.target) : undefined;
    const parts = renderReply(event.text);
    if (parts.length === 0) return { ok: true };
    // Buttons go on a new message (a draft edited into the answer would lose them to the next edit).
    if (event.buttons !== undefined && event.buttons.length > 0) return sender.sendParts(event.target, parts, { atLeastOnce: event.kind === 'final', keyboard: replyKeyboard(event.buttons) });
    if (draftId !== undefined) {
      const [first = '', ...rest] = parts;
      const edited = await sender.edit(event.target, draftId, first);
      if (edited.ok) {
        if (rest.length === 0) return { ok: true, messageId: String(draftId), messageIds: [String(draftId)] };
        const more = await sender.sendParts({ ...event.target, replyToMessageId: undefined }, rest, { atLeastOnce: event.kind === 'final' });
        return more.ok ? { ok: true, messageId: more.messageId, messageIds: [String(draftId), ...(more.messageIds ?? [])] } : more;
      }
      options.logger.debug({ chatId: event.target.chatId, error: edited.error }, 'draft could not be replaced; sending the answer as new messages');
    }
    return sender.sendParts(event.target, parts, { atLeastOnce: event.kind === 'final' });
  }

  async function approvalRequested(event: ApprovalRequested): Promise<Delivery> {
    const card = renderApprovalCard(event.approval, text, options.timezone);
    const delivery = await sender.send(event.target, card.html, { keyboard: card.keyboard, replyTo: event.target.replyToMessageId });
    if (delivery.ok) await options.sentTexts.set(`approval:${event.approval.approvalId}:${event.target.chatId}`, card.html, sentTextTtlMs);
    return delivery;
  }

  async function approvalResolved(event: ApprovalResolved): Promise<Delivery> {
    const key = `approval:${event.approvalId}:${event.target.chatId}`;
    const cardHtml = await options.sentTexts.get(key);
    const html = renderResolvedCard(cardHtml, event.outcome);
    if (event.cardMessageId === undefined) return sender.send(event.target, html);
    const delivery = await sender.edit(event.target, Number(event.cardMessageId), html, { keyboard: noKeyboard });
    if (delivery.ok) await options.sentTexts.delete(key);
    return delivery;
  }

  async function questionAsked(event: QuestionAsked): Promise<Delivery> {
    const question = renderQuestion(event.questionId, event.text, event.options);
    const delivery = await sender.send(event.target, question.html, { keyboard: question.keyboard, replyTo: event.target.replyToMessageId });
    if (delivery.ok) await options.sentTexts.set(`question:${event.questionId}:${event.target.chatId}`, question.html, sentTextTtlMs);
    return delivery;
  }

  async function actionAnswered(event: ActionAnswered): Promise<Delivery> {
    if (event.acknowledgementId === undefined) return event.isAlert ? sender.send(event.target, escapeHtml(event.text), { plain: true }) : { ok: true };
    const answered = await transport.call(
      'answerCallbackQuery',
      { callback_query_id: event.acknowledgementId, text: event.text.slice(0, callbackAnswerLimit), show_alert: event.isAlert },
      { policy: 'idempotent' },
    );
    const press = pressedQuestions.get(event.acknowledgementId);
    pressedQuestions.delete(event.acknowledgementId);
    if (press && !event.isAlert) {
      const key = `question:${press.questionId}:${press.chatId}`;
      const html = renderAnsweredQuestion(await options.sentTexts.get(key), event.text);
      const edited = await sender.edit({ channel: options.channel, chatId: press.chatId }, press.messageId, html, { keyboard: noKeyboard });
      if (edited.ok) await options.sentTexts.delete(key);
    }
    return answered.ok ? { ok: true } : { ok: false, error: answered.error, retryable: answered.retryable };
  }

  async function typing(target: OutboundEvent['target']): Promise<Delivery> {
    if (typingUnsupportedUntil > Date.now()) return { ok: false, error: 'sendChatAction is not supported by this Bot API server', retryable: false };
    const result = await transport.call(
      'sendChatAction',
      { chat_id: target.chatId, action: 'typing', ...(target.threadId === undefined ? {} : { message_thread_id: Number(target.threadId) }) },
      { policy: 'none', timeoutMs: 5000 },
    );
    // Some Bot API servers (and the emulator) do not have sendChatAction; a missing indicator never matters.
    if (!result.ok) options.logger.trace({ error: result.error }, 'typing indicator not shown');
    // A server without the method (the emulator, some local Bot API servers) answers 404 or 500 every time:
    // stop asking for a while rather than spend a request on every turn.
    if (!result.ok && (result.failure.kind === 'server' || (result.failure.kind === 'refused' && result.failure.status === 404))) {
      typingUnsupportedUntil = Date.now() + typingRetryAfterMs;
    }
    return result.ok ? { ok: true } : { ok: false, error: result.error, retryable: false };
  }

  return {
    rememberQuestionPress(acknowledgementId, press) {
      pressedQuestions.set(acknowledgementId, press);
      // Presses whose answer never came must not pile up.
      if (pressedQuestions.size > 500) pressedQuestions.delete(pressedQuestions.keys().next().value as string);
    },
    async send(event) {
      switch (event.type) {
        case 'reply':
          return reply(event);
        case 'approval-requested':
          return approvalRequested(event);
        case 'approval-resolved':
          return approvalResolved(event);
        case 'question-asked':
          return questionAsked(event);
        case 'action-answered':
          return actionAnswered(event);
        case 'typing':
          return typing(event.target);
        case 'file':
          return sendFile(transport, event);
        default:
          return assertNever(event, 'outbound event');
      }
    },
  };
}
