/**
 * Work one instance hands to whichever instance can do it (cluster mode): a WeChat send goes to the
 * instance holding the login. Durable: a hand-off waits in PostgreSQL until a worker takes it.
 */
export interface HandOff {
  /** Queues `payload` under `topic`; false when nothing could take it (one process alone, or the queue failed). */
  send(topic: string, payload: object): Promise<boolean>;
  /** Takes `topic`'s work in this instance until the returned stop is called; a handler that throws is retried. */
  work(topic: string, handler: (payload: object) => Promise<void>): Promise<() => Promise<void>>;
}

/** One process: nothing is handed anywhere (every role is held here). */
export const noHandOff: HandOff = {
  send: async () => false,
  work: async () => async () => undefined,
};
