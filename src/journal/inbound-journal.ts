import type { InboundEvent } from '../events/inbound-event.js';
import type { KeyValueNamespace } from '../store/key-value-namespace.js';

/** One accepted inbound event whose turn has not finished yet. */
export type JournalEntry = {
  readonly event: InboundEvent;
  /** When it was accepted (ms since the epoch) and its place among events accepted in the same millisecond. */
  readonly acceptedAt: number;
  readonly sequence: number;
  /**
   * How many times a process has started it (or was about to): counted before each start, never after, so a start
   * that killed its process is counted. An event whose starts keep being interrupted is parked, not run again.
   */
  readonly attempts: number;
};

/** The durable record of accepted events: written before the channel acknowledges, removed when the turn is done. */
export interface InboundJournal {
  /**
   * Records an event as accepted; rejects when the store did not save it. `attempts` is the starts it counts as
   * made: 1 by default (the first start follows at once, so the hot path needs no second write), 0 for an event
   * put back by an operator (`/parked retry`), which the next re-drive starts and counts.
   */
  record(event: InboundEvent, attempts?: number): Promise<void>;
  /** Marks an event's turn finished (its row goes). */
  complete(eventId: string): Promise<void>;
  /** Counts one more start of an entry; resolves to the updated entry, or undefined when it is gone. */
  countAttempt(eventId: string): Promise<JournalEntry | undefined>;
  /** Unfinished entries in the order they were accepted. */
  unfinished(): Promise<readonly JournalEntry[]>;
}

/** Unfinished rows older than this are dropped by the store: nobody wants a two-week-old message answered. */
const keepUnfinishedMs = 14 * 24 * 60 * 60 * 1000;

/** Creates the journal over one store namespace. */
export function createInboundJournal(namespace: KeyValueNamespace<JournalEntry>, now: () => number = Date.now): InboundJournal {
  let lastAcceptedAt = 0;
  let sequence = 0;
  return {
    async record(event, attempts = 1) {
      const acceptedAt = now();
      sequence = acceptedAt === lastAcceptedAt ? sequence + 1 : 0;
      lastAcceptedAt = acceptedAt;
      // The platform payload is for debugging only and can be large: it is not kept.
      const { raw: _raw, ...kept } = event;
      await namespace.set(event.id, { event: kept as InboundEvent, acceptedAt, sequence, attempts }, keepUnfinishedMs);
    },
    async complete(eventId) {
      await namespace.delete(eventId);
    },
    countAttempt: (eventId) => namespace.update(eventId, (entry) => (entry ? { ...entry, attempts: entry.attempts + 1 } : entry)),
    async unfinished() {
      const entries = (await namespace.entries()).map(([, entry]) => entry);
      return entries.sort((left, right) => left.acceptedAt - right.acceptedAt || left.sequence - right.sequence);
    },
  };
}
