import { createEnvelope } from '../../src/events/create-envelope.js';
import type { MessageReceived } from '../../src/events/inbound-event.js';
import { createSessionKey } from '../../src/events/session-key.js';
import type { MessageRequest } from './message-request.js';

/** The sender id when the body names none. */
export const defaultWebhookSenderId = 'webhook';

/** Turns a validated request into a message event; its id is the run id. Trust flags are set here, never read from the body. Pure. */
export function requestToEvent(request: MessageRequest, options: { readonly runId: string; readonly now: Date }): MessageReceived {
  const senderId = request.senderId ?? defaultWebhookSenderId;
  return {
    type: 'message-received',
    ...createEnvelope({ id: options.runId, channel: 'webhook', chatId: request.chatId, sessionKey: createSessionKey({ channel: 'webhook', chatId: request.chatId }), origin: 'webhook', now: options.now }),
    sender: { id: senderId, displayName: `webhook ${senderId}` },
    text: request.text,
    media: [],
    isGroup: false,
    mentioned: true,
  };
}
