import type { KeyValueNamespace } from '../store/key-value-namespace.js';

/**
 * The events whose final reply reached the channel. A re-run of such an event (its process died
 * after the reply went out and before the event was marked done) does not answer a second time; only
 * a crash in the moment between the channel accepting the reply and this record can still repeat it.
 */
export interface DeliveredReplies {
  record(eventId: string): Promise<void>;
  has(eventId: string): Promise<boolean>;
}

/** Kept as long as a platform may deliver an event again, and longer than any re-run. */
const keepMs = 3 * 24 * 60 * 60 * 1000;

/** Creates the record over one store namespace. */
export function createDeliveredReplies(namespace: KeyValueNamespace<number>, now: () => number = Date.now): DeliveredReplies {
  return {
    record: (eventId) => namespace.set(eventId, now(), keepMs),
    has: async (eventId) => (await namespace.get(eventId)) !== undefined,
  };
}
