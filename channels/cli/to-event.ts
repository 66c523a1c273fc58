import { createEnvelope } from '../../src/events/create-envelope.js';
import type { MessageReceived } from '../../src/events/inbound-event.js';
import { createSessionKey } from '../../src/events/session-key.js';

/** The terminal's one chat and its one person. */
export const cliChatId = 'local';
/** The terminal user's id; the terminal's approver. */
export const cliUserId = 'local';

/** Turns one typed line into a message event; blank lines are no message. Pure. */
export function lineToEvent(line: string, options: { readonly channel: string; readonly userName: string; readonly now: Date }): MessageReceived | undefined {
  const text = line.trim();
  if (text === '') return undefined;
  return {
    type: 'message-received',
    ...createEnvelope({ channel: options.channel, chatId: cliChatId, sessionKey: createSessionKey({ channel: options.channel, chatId: cliChatId }), origin: 'user', now: options.now }),
    sender: { id: cliUserId, displayName: options.userName },
    text,
    media: [],
    isGroup: false,
    mentioned: true,
  };
}
