import type { TurnCancelRequest } from './turn-control.js';

/** A cancel as the other instances hear it: who asked, for which session, and when (ms since the epoch). */
export type BroadcastCancel = TurnCancelRequest & { readonly at: number };

/**
 * How a cancel reaches the turns other instances run (cluster mode): the instance that took the cancel publishes
 * it, every other instance aborts the session's turn it runs and remembers the cancel for turns queued before it.
 */
export interface CancelBroadcast {
  /** Tells every other instance; never throws (a failure is logged: the cancel still stopped what runs here). */
  publish(cancel: BroadcastCancel): Promise<void>;
  /** Hands `handler` every other instance's cancel, from now until `close`. */
  subscribe(handler: (cancel: BroadcastCancel) => void): void;
  close(): Promise<void>;
}

/** One process: there is no other instance to tell. */
export const noCancelBroadcast: CancelBroadcast = {
  publish: async () => undefined,
  subscribe: () => undefined,
  close: async () => undefined,
};
