import { createEnvelope } from '../../src/events/create-envelope.js';
import type { ActionClicked, MessageReceived } from '../../src/events/inbound-event.js';
import { createSessionKey } from '../../src/events/session-key.js';

/**
 * A request's new input as a message event; its id is the run id. The sender is the key's user (never a field of the
 * body) and the origin is a person: a key stands for someone at an OpenAI client, so cards wait for them. Pure.
 */
export function requestToEvent(input: { readonly channel: string; readonly runId: string; readonly chatId: string; readonly userId: string; readonly text: string; readonly now: Date }): MessageReceived {
  return {
    type: 'message-received',
    ...createEnvelope({ id: input.runId, channel: input.channel, chatId: input.chatId, sessionKey: createSessionKey({ channel: input.channel, chatId: input.chatId }), origin: 'user', now: input.now }),
    sender: { id: input.userId, displayName: input.userId },
    text: input.text,
    media: [],
    isGroup: false,
    mentioned: true,
  };
}

/** A decision sent to POST /v1/approvals/<id>, as the press of a button on the card, in the card's conversation. Pure. */
export function decisionToEvent(input: {
  readonly channel: string;
  readonly requestId: string;
  readonly chatId: string;
  readonly sessionKey: string;
  readonly userId: string;
  readonly approvalId: string;
  readonly choice: string;
  readonly now: Date;
}): ActionClicked {
  return {
    type: 'action-clicked',
    ...createEnvelope({ id: input.requestId, channel: input.channel, chatId: input.chatId, sessionKey: input.sessionKey, origin: 'user', now: input.now }),
    sender: { id: input.userId, displayName: input.userId },
    action: 'approval',
    actionId: input.approvalId,
    choice: input.choice,
    // The runtime answers the decision on this handle: the route waiting for it finds it there.
    acknowledgementId: input.requestId,
  };
}
