/** How sends in one conversation are spaced. */
export type SendPacerOptions = {
  /** Least time between two sends in one conversation; WeChat punishes bursts. */
  readonly intervalMs: number;
  /** Up to this much extra wait, at random, so sends do not look machine-timed. */
  readonly jitterMs: number;
  readonly now?: () => number;
  readonly sleep?: (milliseconds: number) => Promise<void>;
  readonly random?: () => number;
};

/** Runs sends one at a time per conversation, at most one per interval (plus jitter); other conversations do not wait. */
export interface SendPacer {
  run<T>(conversationId: string, send: () => Promise<T>): Promise<T>;
}

const forgetAfterConversations = 1000;

/** Creates a per-conversation send pacer. */
export function createSendPacer(options: SendPacerOptions): SendPacer {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((milliseconds: number) => new Promise<void>((resolve) => setTimeout(resolve, milliseconds)));
  const random = options.random ?? Math.random;
  const lanes = new Map<string, { tail: Promise<unknown>; lastSentAt: number; queued: number }>();

  function forgetIdle(): void {
    if (lanes.size < forgetAfterConversations) return;
    for (const [id, lane] of lanes) {
      if (lane.queued === 0 && now() - lane.lastSentAt >= options.intervalMs + options.jitterMs) lanes.delete(id);
    }
  }

  return {
    run(conversationId, send) {
      forgetIdle();
      const lane = lanes.get(conversationId) ?? { tail: Promise.resolve(), lastSentAt: Number.NEGATIVE_INFINITY, queued: 0 };
      lanes.set(conversationId, lane);
      lane.queued += 1;
      const result = lane.tail.then(async () => {
        const wait = lane.lastSentAt + options.intervalMs + random() * options.jitterMs - now();
        if (wait > 0) await sleep(wait);
        try {
          return await send();
        } finally {
          lane.lastSentAt = now();
          lane.queued -= 1;
        }
      });
      lane.tail = result.catch(() => undefined);
      return result;
    },
  };
}
