/** A reply QQ would not take when it was written, kept for the person's next message. */
export type HeldReply = { readonly text: string; readonly notice: string };

/** Replies that could not be sent passively, per chat, delivered as replies to the person's next message. */
export type HeldReplies = {
  hold(chatId: string, reply: HeldReply): void;
  /** Takes (and forgets) what is held for a chat. */
  take(chatId: string): readonly HeldReply[];
};

// The next message allows only a few replies; the answer to it comes after these.
const perChat = 2;
const chats = 5000;

/** Creates the holder: in memory and bounded (the newest kept), so a restart forgets what it held. */
export function createHeldReplies(): HeldReplies {
  const byChat = new Map<string, HeldReply[]>();
  return {
    hold(chatId, reply) {
      const list = byChat.get(chatId) ?? [];
      byChat.delete(chatId);
      list.push(reply);
      while (list.length > perChat) list.shift();
      byChat.set(chatId, list);
      const oldest = byChat.keys().next().value;
      if (byChat.size > chats && oldest !== undefined) byChat.delete(oldest);
    },
    take(chatId) {
      const list = byChat.get(chatId) ?? [];
      byChat.delete(chatId);
      return list;
    },
  };
}
