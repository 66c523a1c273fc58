import type { Delivery } from '../../src/events/outbound-event.js';
import type { Target } from '../../src/events/target.js';
import { isEntityRejection, isNotModified } from './classify-telegram-failure.js';
import { htmlToPlainText } from './escape-html.js';
import type { InlineKeyboard } from './render.js';
import type { CallResult, TelegramTransport } from './telegram-transport.js';

/** A sent message as Telegram returns it (only the id is read). */
type SentMessage = { readonly message_id?: number };

/** How one message is sent. */
export type SendOptions = {
  readonly keyboard?: InlineKeyboard;
  readonly replyTo?: string;
  readonly plain?: boolean;
  /**
   * Retry after ambiguous failures too (a 5xx, a broken connection): a lost answer is worse than a rare
   * duplicate. Used for final replies; cards and notices keep the cautious policy.
   */
  readonly atLeastOnce?: boolean;
};

/** Sending and editing HTML messages, with the plain-text fallback when Telegram rejects the markup. */
export interface TelegramSender {
  /** Sends one HTML message (at most 4096 characters); threads it under `replyTo` when given. */
  send(target: Target, html: string, options?: SendOptions): Promise<Delivery>;
  /** Sends parts in order; the first replies to the target's message, the last carries `keyboard`. Stops at the first failure. */
  sendParts(target: Target, parts: readonly string[], options?: Pick<SendOptions, 'atLeastOnce' | 'keyboard'>): Promise<Delivery>;
  /** Edits a message's text (and buttons); an edit that changes nothing counts as done. */
  edit(target: Target, messageId: number, html: string, options?: { readonly keyboard?: InlineKeyboard; readonly plain?: boolean }): Promise<Delivery>;
}

/** Creates the sender over the transport. */
export function createTelegramSender(transport: TelegramTransport): TelegramSender {
  const base = (target: Target) => ({
    chat_id: target.chatId,
    ...(target.threadId === undefined ? {} : { message_thread_id: Number(target.threadId) }),
  });

  const sender: TelegramSender = {
    async send(target, html, options = {}) {
      const payload = {
        ...base(target),
        ...(options.keyboard ? { reply_markup: options.keyboard } : {}),
        ...(options.replyTo === undefined ? {} : { reply_to_message_id: Number(options.replyTo), allow_sending_without_reply: true }),
      };
      const policy = options.atLeastOnce ? 'idempotent' : 'visible';
      let result: CallResult<SentMessage> = options.plain
        ? await transport.call<SentMessage>('sendMessage', { ...payload, text: htmlToPlainText(html) }, { policy, chatId: target.chatId })
        : await transport.call<SentMessage>('sendMessage', { ...payload, text: html, parse_mode: 'HTML' }, { policy, chatId: target.chatId });
      // Telegram refused the markup: nothing was sent, so the same text goes again without it.
      if (!result.ok && !options.plain && isEntityRejection(result.failure)) {
        result = await transport.call<SentMessage>('sendMessage', { ...payload, text: htmlToPlainText(html) }, { policy, chatId: target.chatId });
      }
      if (!result.ok) return { ok: false, error: result.error, retryable: result.retryable };
      const messageId = result.value?.message_id;
      return messageId === undefined ? { ok: true } : { ok: true, messageId: String(messageId) };
    },
    async sendParts(target, parts, partOptions = {}) {
      const ids: string[] = [];
      for (const [index, part] of parts.entries()) {
        const keyboard = index === parts.length - 1 ? partOptions.keyboard : undefined;
        const delivery = await sender.send(target, part, { replyTo: index === 0 ? target.replyToMessageId : undefined, atLeastOnce: partOptions.atLeastOnce, ...(keyboard === undefined ? {} : { keyboard }) });
        if (!delivery.ok) {
          const error = ids.length === 0 ? delivery.error : `${delivery.error} (after ${ids.length} of ${parts.length} parts were delivered)`;
          // Parts already shown would show twice if the whole answer were sent again.
          return { ok: false, error, retryable: ids.length === 0 && delivery.retryable };
        }
        if (delivery.messageId !== undefined) ids.push(delivery.messageId);
      }
      return { ok: true, messageId: ids.at(-1), messageIds: ids };
    },
    async edit(target, messageId, html, options = {}) {
      const payload = { chat_id: target.chatId, message_id: messageId, ...(options.keyboard ? { reply_markup: options.keyboard } : {}) };
      let result = options.plain
        ? await transport.call('editMessageText', { ...payload, text: htmlToPlainText(html) }, { policy: 'idempotent', chatId: target.chatId })
        : await transport.call('editMessageText', { ...payload, text: html, parse_mode: 'HTML' }, { policy: 'idempotent', chatId: target.chatId });
      if (!result.ok && !options.plain && isEntityRejection(result.failure)) {
        result = await transport.call('editMessageText', { ...payload, text: htmlToPlainText(html) }, { policy: 'idempotent', chatId: target.chatId });
      }
      if (!result.ok && !isNotModified(result.failure)) return { ok: false, error: result.error, retryable: result.retryable };
      return { ok: true, messageId: String(messageId) };
    },
  };
  return sender;
}
