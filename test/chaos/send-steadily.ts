/** A steady stream of numbered messages, started by `sendSteadily`. */
export type SteadyStream = {
  /** When each message was sent (ms since the epoch), by its text. */
  readonly sentAt: ReadonlyMap<string, number>;
  /** Resolves once every message was sent, or after `stop()`. */
  readonly done: Promise<void>;
  /** Sends nothing more; resolves when the send in progress has finished. */
  stop(): Promise<void>;
};

/** What to send, to whom, and how often. */
export type SteadyStreamOptions = {
  readonly people: readonly number[];
  /** Messages per person; `Number.POSITIVE_INFINITY` sends until `stop()`. */
  readonly messagesEach: number;
  /** One message every this many ms, across all people. */
  readonly everyMs: number;
  readonly textOf: (person: number, number: number) => string;
  readonly send: (person: number, text: string) => Promise<void>;
};

/**
 * Sends message 1 of every person, then message 2 of every person, and so on, one message every
 * `everyMs` on a fixed schedule (a slow send does not shift the ones after it), so that turns are
 * in flight at every moment: whenever an instance is killed, some of them are its own.
 */
export function sendSteadily(options: SteadyStreamOptions): SteadyStream {
  const sentAt = new Map<string, number>();
  const startedAt = Date.now();
  let stopped = false;
  const done = (async () => {
    for (let number = 1; number <= options.messagesEach && !stopped; number += 1) {
      for (const [index, person] of options.people.entries()) {
        const due = startedAt + ((number - 1) * options.people.length + index) * options.everyMs;
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - Date.now())));
        if (stopped) return;
        const text = options.textOf(person, number);
        sentAt.set(text, Date.now());
        await options.send(person, text);
      }
    }
  })();
  return {
    sentAt,
    done,
    async stop() {
      stopped = true;
      await done;
    },
  };
}
