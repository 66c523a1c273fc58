import type { Delivery } from '../../src/events/outbound-event.js';
import type { QqSender } from './create-qq-sender.js';
import type { HeldReplies } from './held-replies.js';
import { parseQqChatId } from './qq-chat-id.js';
import type { QqMessages } from './qq-strings.js';
import type { ReplyAnchors } from './reply-anchors.js';
import { checkReply } from './reply-rules.js';

/** How one set of texts is sent: the message it answers, and whether an answer QQ will not take is held for later. */
export type PassiveSendOptions = {
  /** The person's message the texts answer (`Target.replyToMessageId`). */
  readonly replyTo?: string;
  /** Hold what QQ would not take, with a notice, for the person's next message (answers; not drafts or notices). */
  readonly holdWhenRefused: boolean;
};

/** Sends texts as passive replies, each naming a message QQ still takes replies to; refusals are failed deliveries. */
export type PassiveReplies = {
  send(chatId: string, texts: readonly string[], options: PassiveSendOptions): Promise<Delivery>;
  /** Sends what was held for a chat as replies to the person's new message. */
  flushHeld(chatId: string): Promise<void>;
};

/** What the passive sender is built from. */
export type PassiveRepliesOptions = {
  readonly sender: QqSender;
  readonly anchors: ReplyAnchors;
  readonly held: HeldReplies;
  readonly messages: QqMessages;
  readonly messageChars: number;
  readonly now: () => Date;
};

/** Creates the passive sender over the QQ sender, the chats' reply anchors and the held replies. */
export function createPassiveReplies(options: PassiveRepliesOptions): PassiveReplies {
  const { sender, anchors, held, messages } = options;

  const send: PassiveReplies['send'] = async (chatId, texts, sendOptions) => {
    const target = parseQqChatId(chatId);
    if (!target) return { ok: false, error: `"${chatId}" is not a QQ chat id (c2c:<openid> or group:<openid>).`, retryable: false };
    const messageIds: string[] = [];
    for (const [index, text] of texts.entries()) {
      const now = options.now();
      const anchor = anchors.pick(chatId, { ...(sendOptions.replyTo === undefined ? {} : { preferred: sendOptions.replyTo }), now });
      // A message this process never saw (a turn resumed after a restart): QQ itself judges the window.
      const unknown = anchor === undefined && sendOptions.replyTo !== undefined && anchors.find(chatId, sendOptions.replyTo) === undefined;
      const replyTo = anchor ? { messageId: anchor.messageId, sentAt: anchor.sentAt } : unknown && sendOptions.replyTo !== undefined ? { messageId: sendOptions.replyTo, sentAt: now } : undefined;
      if (!replyTo) {
        // Nothing QQ would take a reply to: the known message's reason, or a send of the bot's own.
        const known = sendOptions.replyTo === undefined ? undefined : anchors.find(chatId, sendOptions.replyTo);
        const check = known === undefined ? undefined : checkReply({ scene: known.scene, sentAt: known.sentAt, now, repliesSent: known.replies });
        const reason = check === undefined || check.ok ? 'proactive-refused' : check.reason;
        return refused(chatId, texts.slice(index), messageIds, { reason, message: describeReason(reason) }, sendOptions.holdWhenRefused, target.scene);
      }
      const delivery = await sender.send({ target, content: text, replyTo });
      if (!delivery.ok) {
        if (delivery.reason === 'unreachable' || delivery.reason === 'platform-error' || delivery.reason === 'rate-limited' || delivery.reason === 'token-refused') {
          return { ok: false, error: delivery.message, retryable: delivery.retryable && messageIds.length === 0 };
        }
        return refused(chatId, texts.slice(index), messageIds, { reason: delivery.reason, message: delivery.message }, sendOptions.holdWhenRefused, target.scene);
      }
      if (anchor) anchors.counted(anchor);
      if (delivery.messageId !== undefined) messageIds.push(delivery.messageId);
    }
    return { ok: true, ...(messageIds[0] === undefined ? {} : { messageId: messageIds[0], messageIds }) };
  };

  const refused = (
    chatId: string,
    rest: readonly string[],
    sentIds: readonly string[],
    failure: { readonly reason: Parameters<QqMessages['qqUndelivered']>[0]; readonly message: string },
    hold: boolean,
    scene: 'c2c' | 'group',
  ): Delivery => {
    if (hold) held.hold(chatId, { text: rest.join('\n'), notice: messages.qqUndelivered(failure.reason, scene) });
    const partly = sentIds.length > 0 ? ` (${sentIds.length} part${sentIds.length === 1 ? '' : 's'} went out before)` : '';
    const kept = hold ? '; kept for the person\'s next message' : '';
    return { ok: false, error: `QQ did not take the reply (${failure.reason}): ${failure.message}${partly}${kept}`, retryable: false };
  };

  return {
    send,
    async flushHeld(chatId) {
      const target = parseQqChatId(chatId);
      if (!target) return;
      for (const reply of held.take(chatId)) {
        const text = `${reply.notice}\n\n${reply.text}`;
        await send(chatId, [text.length > options.messageChars ? `${text.slice(0, options.messageChars - 1)}…` : text], { holdWhenRefused: false });
      }
    },
  };
}

function describeReason(reason: 'proactive-refused' | 'reply-limit-reached' | 'reply-window-closed'): string {
  if (reason === 'proactive-refused') return 'QQ delivers only replies to a person\'s message, and no message of this chat is recent enough.';
  if (reason === 'reply-limit-reached') return 'the message was already answered as often as QQ allows.';
  return 'the message is older than QQ accepts replies to.';
}
