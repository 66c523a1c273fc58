/** Where an outbound event goes: a channel, a chat in it, and optionally a thread and a message to reply to. */
export type Target = {
  readonly channel: string;
  readonly chatId: string;
  readonly threadId?: string;
  readonly replyToMessageId?: string;
};

/** Formats a target as `channel:chatId`, the form used in config (`telegram:12345`). */
export function formatTarget(target: Target): string {
  return `${target.channel}:${target.chatId}`;
}

/** Parses `channel:chatId` into a target; undefined when the text has no channel part. */
export function parseTarget(text: string): Target | undefined {
  const separator = text.indexOf(':');
  if (separator <= 0 || separator === text.length - 1) return undefined;
  return { channel: text.slice(0, separator), chatId: text.slice(separator + 1) };
}
