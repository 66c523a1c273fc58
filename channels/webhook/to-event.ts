import { createEnvelope } from '../../src/events/create-envelope.js';
import type { MessageReceived } from '../../src/events/inbound-event.js';
import { createSessionKey } from '../../src/events/session-key.js';
import type { MessageRequest } from './message-request.js';

/** The sender id when the body names none. */
export const defaultWebhookSenderId = 'webhook';

/** The client name turns are billed under when the config names none. */
export const defaultWebhookClientName = 'client';

/**
 * Turns a validated request into a message event; its id is the run id. Trust flags are set here, never read
 * from the body, and so is who pays: the client the secret belongs to, whatever senderId and chatId it sends. Pure.
 */
export function requestToEvent(request: MessageRequest, options: { readonly channel: string; readonly runId: string; readonly now: Date; readonly clientName?: string }): MessageReceived {
  const senderId = request.senderId ?? defaultWebhookSenderId;
  return {
    type: 'message-received',
    ...createEnvelope({ id: options.runId, channel: options.channel, chatId: request.chatId, sessionKey: createSessionKey({ channel: options.channel, chatId: request.chatId }), origin: 'system', now: options.now }),
    sender: { id: senderId, displayName: `webhook ${senderId}` },
    text: request.text,
    media: [],
    isGroup: false,
    mentioned: true,
    billedTo: options.clientName ?? defaultWebhookClientName,
  };
}
