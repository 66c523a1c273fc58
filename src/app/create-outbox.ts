import { describeError } from '../errors/echo-error.js';
import type { Channel } from '../events/channel.js';
import type { Delivery } from '../events/outbound-event.js';
import type { Outbox } from '../events/outbox.js';
import type { Logger } from '../logging/create-logger.js';

/** An outbox that routes each event to the channel its target names; the channel set is filled in after wiring. */
export function createOutbox(logger: Logger): Outbox & { register(channel: Channel): void } {
  const channels = new Map<string, Channel>();
  return {
    register(channel) {
      channels.set(channel.name, channel);
    },
    async send(event): Promise<Delivery> {
      const channel = channels.get(event.target.channel);
      if (!channel) return { ok: false, error: `No channel named "${event.target.channel}" is running.`, retryable: false };
      try {
        return await channel.send(event);
      } catch (error) {
        // A channel should return failures as values; a throw is its bug, but the turn still goes on.
        logger.error({ err: error, channel: channel.name, eventType: event.type }, 'channel send threw');
        return { ok: false, error: describeError(error), retryable: false };
      }
    },
  };
}
