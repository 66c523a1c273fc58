import type { MessageBus } from '../bus/message-bus.js';
import type { EmitResult } from '../events/channel.js';
import type { InboundEvent } from '../events/inbound-event.js';
import type { Logger } from '../logging/create-logger.js';
import type { InboundJournal, JournalEntry } from './inbound-journal.js';

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
   * process: at start-up (before channels start) and on every sweep. An event already started
   * `parkAfter` times without finishing is parked instead. Resolves to how many were queued.
   */
  redrive(): Promise<number>;
}

/** Sets an event aside (store, notice, audit); the intake removes its journal row once this resolved. */
export type ParkTurn = (input: { readonly event: InboundEvent; readonly attempts: number; readonly reason: string }) => Promise<void>;

/** What the intake is built from. */
export type DurableIntakeOptions = {
  readonly bus: MessageBus;
  readonly journal: InboundJournal;
  readonly logger: Logger;
  /**
   * Interrupted starts after which an event is parked instead of run again (`bus.parkAfterInterruptions`, default 2):
   * an event that kills its process must not kill every restart.
   */
  readonly parkAfter?: number;
  /** Where parked events go; without it they are only logged and dropped. */
  readonly park?: ParkTurn;
};

/** Internal events are not journaled: their own records (suspended turns) are what survives. */
function isJournaled(event: InboundEvent): boolean {
  return event.type !== 'turn-resumed';
}

/** The one line an operator reads about why a turn was parked. */
export function describeInterruptions(attempts: number): string {
  return `started ${attempts} time(s) and never finished: the process died or the turn failed each time`;
}

/** Creates the intake over the bus and the journal. */
export function createDurableIntake(options: DurableIntakeOptions): DurableIntake {
  const { bus, journal, logger } = options;
  const parkAfter = options.parkAfter ?? 2;
  // Events queued or running in this process: a sweep must not queue them a second time.
  const inFlight = new Set<string>();
  const removals = new Set<Promise<void>>();
  let redriving: Promise<number> = Promise.resolve(0);

  async function park(entry: JournalEntry): Promise<void> {
    const { event, attempts } = entry;
    logger.error({ eventId: event.id, type: event.type, channel: event.channel, sessionKey: event.sessionKey, attempts }, 'inbound event parked: its turn was interrupted too often to run again');
    await options.park?.({ event, attempts, reason: describeInterruptions(attempts) });
    await journal.complete(event.id);
  }

  return {
    async accept(event) {
      if (!isJournaled(event)) return await bus.publish(event);
      inFlight.add(event.id);
      try {
        // Counted as started in the same write: the first start follows at once.
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
    redrive() {
      // One re-drive at a time (a sweep and an operator's retry may meet): two would both find a row not in flight.
      const next = redriving.then(redriveNow, redriveNow);
      redriving = next.catch(() => 0);
      return next;
    },
  };

  async function redriveNow(): Promise<number> {
    let queued = 0;
    // Sessions whose next start is known: only the first event of a session starts next in its lane, so only it is
    // counted now; the events behind it are queued uncounted (they may never start if the first kills the process).
    const started = new Set<string>();
    for (const entry of await journal.unfinished()) {
      const { event } = entry;
      if (inFlight.has(event.id)) {
        started.add(event.sessionKey);
        continue;
      }
      if (!started.has(event.sessionKey)) {
        if (entry.attempts >= parkAfter) {
          await park(entry);
          continue;
        }
        // Written before the event is queued: a start that kills the process has been counted.
        if (!(await journal.countAttempt(event.id))) continue;
        started.add(event.sessionKey);
      }
      inFlight.add(event.id);
      const published = await bus.publish({ ...event, redelivered: true });
      if (!published.accepted) {
        // Full or closing: the row stays, the next sweep tries again.
        inFlight.delete(event.id);
        break;
      }
      queued += 1;
    }
    if (queued > 0) logger.info({ queued }, 'unfinished inbound events queued again');
    return queued;
  }
}
