/** Options for building a session key. */
export type SessionKeyParts = {
  readonly channel: string;
  readonly chatId: string;
  /** Set for per-user sessions inside a group chat. */
  readonly senderId?: string;
};

/** The key of one conversation: `<channel>:<chatId>`, or `<channel>:<chatId>:<senderId>` per user in a group. */
export function createSessionKey(parts: SessionKeyParts): string {
  const base = `${parts.channel}:${parts.chatId}`;
  return parts.senderId === undefined ? base : `${base}:${parts.senderId}`;
}
