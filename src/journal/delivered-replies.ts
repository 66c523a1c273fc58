import type { KeyValueNamespace } from '../store/key-value-namespace.js';

/**
 * The events whose final reply reached the channel. A re-run of such an event (its process died
 * after the reply went out and before the event was marked done) does not answer a second time; only
 * a crash in the moment between the channel accepting the reply and this record can still repeat it.
 */
export interface DeliveredReplies {
  record(eventId: string): Promise<void>;
  has(eventId: string): Promise<boolean>;
  /** Forgets an event's record: a parked turn's notice was its final reply, and an operator's retry must run it. */
  forget(eventId: string): Promise<void>;
}

/** Creates the record over one store namespace; `keepMs` is as long as re-runs and re-deliveries are expected (`storage.dedupeHours`). */
export function createDeliveredReplies(namespace: KeyValueNamespace<number>, keepMs: number, now: () => number = Date.now): DeliveredReplies {
  return {
    record: (eventId) => namespace.set(eventId, now(), keepMs),
    has: async (eventId) => (await namespace.get(eventId)) !== undefined,
    forget: async (eventId) => void (await namespace.delete(eventId)),
  };
}
