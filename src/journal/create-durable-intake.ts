import type { MessageBus } from '../bus/message-bus.js';
import type { EmitResult } from '../events/channel.js';
import type { InboundEvent } from '../events/inbound-event.js';
import type { Logger } from '../logging/create-logger.js';
import type { InboundJournal } from './inbound-journal.js';

/** Where inbound events enter: journaled first, then queued; re-run after a crash. */
export interface DurableIntake {
  /** The channels' emit: records the event durably, then queues it. Only an accepted event may be acknowledged. */
  accept(event: InboundEvent): Promise<EmitResult>;
  /**
   * Called when an event's handling finished (its reply delivered, or its turn suspended). The row's
   * removal goes on in the background, off the session's lane; `flush` waits for it.
   */
  complete(event: InboundEvent): void;
  /** Waits for background removals (before the store closes). */
  flush(): Promise<void>;
  /** Called when handling failed: the event stays in the journal, and the next sweep queues it again. */
  release(event: InboundEvent): void;
  /**
   * Queues every unfinished event again, in the order it was accepted, except those running in this
   * process: at start-up (before channels start) and on every sweep. Resolves to how many were queued.
   */
  redrive(): Promise<number>;
}

/** What the intake is built from. */
export type DurableIntakeOptions = {
  readonly bus: MessageBus;
  readonly journal: InboundJournal;
  readonly logger: Logger;
  /** Starts of one event before it is given up (an event that crashes its process must not crash every restart). */
  readonly maxAttempts?: number;
};

/** Internal events are not journaled: their own records (suspended turns) are what survives. */
function isJournaled(event: InboundEvent): boolean {
  return event.type !== 'turn-resumed';
}

/** Creates the intake over the bus and the journal. */
export function createDurableIntake(options: DurableIntakeOptions): DurableIntake {
  const { bus, journal, logger } = options;
  const maxAttempts = options.maxAttempts ?? 3;
  // Events queued or running in this process: a sweep must not queue them a second time.
  const inFlight = new Set<string>();
  const removals = new Set<Promise<void>>();

  return {
    async accept(event) {
      if (!isJournaled(event)) return await bus.publish(event);
      inFlight.add(event.id);
      try {
        await journal.record(event);
      } catch (error) {
        inFlight.delete(event.id);
        logger.error({ err: error, eventId: event.id, channel: event.channel }, 'inbound event could not be recorded; refused so the platform delivers it again');
        return { accepted: false, reason: 'unavailable' };
      }
      const published = await bus.publish(event);
      if (!published.accepted) {
        inFlight.delete(event.id);
        // The channel tells the person (busy) or the platform (closed) to come again: the row must not run it as well.
        await journal.complete(event.id).catch((error: unknown) => logger.warn({ err: error, eventId: event.id }, 'refused event stays in the journal; it runs on the next sweep'));
      }
      return published;
    },
    complete(event) {
      if (!isJournaled(event)) return;
      const removal = journal
        .complete(event.id)
        .catch((error: unknown) => logger.warn({ err: error, eventId: event.id }, 'finished event could not be marked done; it may run again after a restart'))
        .finally(() => {
          // Until the row is gone it must not look unfinished to a sweep.
          inFlight.delete(event.id);
          removals.delete(removal);
        });
      removals.add(removal);
    },
    async flush() {
      await Promise.allSettled([...removals]);
    },
    release(event) {
      inFlight.delete(event.id);
    },
    async redrive() {
      let queued = 0;
      for (const entry of await journal.unfinished()) {
        if (inFlight.has(entry.event.id)) continue;
        const counted = await journal.countAttempt(entry.event.id);
        if (!counted) continue;
        if (counted.attempts > maxAttempts) {
          logger.error({ eventId: entry.event.id, type: entry.event.type, channel: entry.event.channel, attempts: counted.attempts - 1 }, 'inbound event given up after repeated attempts');
          await journal.complete(entry.event.id);
          continue;
        }
        inFlight.add(entry.event.id);
        const published = await bus.publish({ ...entry.event, redelivered: true });
        if (!published.accepted) {
          // Full or closing: the row stays, the next sweep tries again.
          inFlight.delete(entry.event.id);
          break;
        }
        queued += 1;
      }
      if (queued > 0) logger.info({ queued }, 'unfinished inbound events queued again');
      return queued;
    },
  };
}
