import { describeError } from '../errors/echo-error.js';
import type { Channel } from '../events/channel.js';
import type { Delivery } from '../events/outbound-event.js';
import type { Outbox } from '../events/outbox.js';
import type { Logger } from '../logging/create-logger.js';

/** What the outbox is built from. */
export type OutboxOptions = {
  readonly logger: Logger;
  /** False when this async path runs a job another instance took over (cluster mode): it must not send. */
  readonly isClaimHeld: () => Promise<boolean>;
  /** Told when a final reply caused by an inbound event arrived, so a re-run of that event does not answer again. */
  readonly onFinalDelivered: (eventId: string) => Promise<void>;
};

/** The outbox as the root holds it: channels register as they are wired. */
export type RoutingOutbox = Outbox & { register(channel: Channel): void };

/** An outbox that routes each event to the channel its target names; the channel set is filled in after wiring. */
export function createOutbox(options: OutboxOptions): RoutingOutbox {
  const { logger } = options;
  const channels = new Map<string, Channel>();
  return {
    register(channel) {
      channels.set(channel.name, channel);
    },
    async send(event): Promise<Delivery> {
      const channel = channels.get(event.target.channel);
      if (!channel) return { ok: false, error: `No channel named "${event.target.channel}" is running.`, retryable: false };
      // A typing indicator or a progress draft from a stale worker misleads nobody for long (the final reply, cards and
      // history writes are fenced), and a streamed answer sends many: they do not ask the queue, one round trip each.
      if (event.type !== 'typing' && !(event.type === 'reply' && event.kind === 'progress') && !(await options.isClaimHeld())) {
        logger.warn({ channel: channel.name, eventType: event.type }, 'not sent: another instance took this turn over');
        return { ok: false, error: 'This turn was taken over by another instance.', retryable: false };
      }
      let delivery: Delivery;
      try {
        delivery = await channel.send(event);
      } catch (error) {
        // A channel should return failures as values; a throw is its bug, but the turn still goes on.
        logger.error({ err: error, channel: channel.name, eventType: event.type }, 'channel send threw');
        return { ok: false, error: describeError(error), retryable: false };
      }
      if (delivery.ok && event.type === 'reply' && event.kind === 'final' && event.causationId !== undefined) {
        await options.onFinalDelivered(event.causationId).catch((error: unknown) => logger.warn({ err: error, eventId: event.causationId }, 'delivered reply not recorded; a re-run after a crash may answer again'));
      }
      return delivery;
    },
  };
}
