import { createId } from './create-id.js';
import type { Envelope, Origin } from './inbound-event.js';

/** What a channel knows about where an inbound event comes from and who started it. */
export type EnvelopeInput = {
  readonly channel: string;
  readonly chatId: string;
  readonly sessionKey: string;
  /** Set by the channel's own code from what it knows (a chat is a person, a firing is a schedule), never from a payload. */
  readonly origin: Origin;
  readonly now: Date;
  /** The event id (and trace id) when the channel already chose one, e.g. a webhook's run id. */
  readonly id?: string;
  readonly messageId?: string;
  readonly threadId?: string;
  readonly raw?: unknown;
};

/**
 * The envelope every inbound event carries: a new id doubling as the trace id, the time, and the trust
 * flags. `unattended` follows from the origin: only a person's own message has someone watching.
 */
export function createEnvelope(input: EnvelopeInput): Envelope {
  const id = input.id ?? createId();
  return {
    id,
    traceId: id,
    at: input.now.toISOString(),
    channel: input.channel,
    chatId: input.chatId,
    sessionKey: input.sessionKey,
    origin: input.origin,
    unattended: input.origin !== 'user',
    ...(input.messageId === undefined ? {} : { messageId: input.messageId }),
    ...(input.threadId === undefined ? {} : { threadId: input.threadId }),
    ...(input.raw === undefined ? {} : { raw: input.raw }),
  };
}
