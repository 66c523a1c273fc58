/** What a client may name a conversation: letters, digits and `_ . : @ -` (no `/`), at most 128. */
const conversationPattern = /^[A-Za-z0-9_.:@-]{1,128}$/;

/**
 * The chat id of a request's conversation: always `<key's user>/<conversation>`, so no key reaches another key's
 * sessions whatever it names. The conversation is `X-Session-Id`, else the body's `user`, else a digest of the first
 * user message (a client that names none gets one session per chat it starts). Undefined when the name is not allowed. Pure.
 */
export function conversationOf(input: { readonly userId: string; readonly sessionHeader?: string; readonly user?: string; readonly firstMessageDigest: string }): string | undefined {
  const named = input.sessionHeader !== undefined && input.sessionHeader !== '' ? input.sessionHeader : input.user;
  if (named !== undefined && !conversationPattern.test(named)) return undefined;
  return `${input.userId}/${named ?? `chat-${input.firstMessageDigest}`}`;
}

/** The user a conversation's chat id belongs to. Pure. */
export function ownerOfConversation(chatId: string): string {
  return chatId.slice(0, Math.max(0, chatId.indexOf('/')));
}
