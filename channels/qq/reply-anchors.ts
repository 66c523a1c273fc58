import { checkReply } from './reply-rules.js';
import type { QqScene } from './to-inbound-message.js';

/** A person's message a reply may name (`msg_id`), with when it was sent and how many replies it took. */
export type ReplyAnchor = { readonly messageId: string; readonly sentAt: Date; readonly scene: QqScene; replies: number };

/** Remembers each chat's recent messages, so a reply names one QQ still accepts replies to. */
export type ReplyAnchors = {
  /** Records a person's message in a chat. */
  remember(chatId: string, anchor: Omit<ReplyAnchor, 'replies'>): void;
  /**
   * The message to reply to: the one asked for when QQ still takes replies to it, else the newest message of
   * the chat that does; undefined when none does (the reply cannot be sent passively).
   */
  pick(chatId: string, input: { readonly preferred?: string; readonly now: Date }): ReplyAnchor | undefined;
  /** The anchor asked for, even past its window (so the refusal names the real reason), when it is known. */
  find(chatId: string, messageId: string): ReplyAnchor | undefined;
  /** Counts one accepted reply to the anchor. */
  counted(anchor: ReplyAnchor): void;
};

const perChat = 20;
const chats = 5000;

/** Creates the book; bounded per chat and in chats, oldest forgotten first. */
export function createReplyAnchors(): ReplyAnchors {
  const byChat = new Map<string, ReplyAnchor[]>();
  const accepts = (anchor: ReplyAnchor, now: Date) => checkReply({ scene: anchor.scene, sentAt: anchor.sentAt, now, repliesSent: anchor.replies }).ok;
  return {
    remember(chatId, anchor) {
      const list = byChat.get(chatId) ?? [];
      byChat.delete(chatId);
      if (!list.some((known) => known.messageId === anchor.messageId)) list.push({ ...anchor, replies: 0 });
      while (list.length > perChat) list.shift();
      byChat.set(chatId, list);
      const oldest = byChat.keys().next().value;
      if (byChat.size > chats && oldest !== undefined) byChat.delete(oldest);
    },
    pick(chatId, input) {
      const list = byChat.get(chatId) ?? [];
      const preferred = input.preferred === undefined ? undefined : list.find((anchor) => anchor.messageId === input.preferred);
      if (preferred && accepts(preferred, input.now)) return preferred;
      return [...list].reverse().find((anchor) => accepts(anchor, input.now));
    },
    find: (chatId, messageId) => byChat.get(chatId)?.find((anchor) => anchor.messageId === messageId),
    counted(anchor) {
      anchor.replies += 1;
    },
  };
}
