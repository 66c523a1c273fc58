/** Limits per chat, per group and overall, as token buckets: a short burst, then a steady rate. */
export type ThrottleLimits = {
  /** Messages per second in one chat (Telegram: about 1). */
  readonly perChatPerSecond: number;
  readonly perChatBurst: number;
  /** Messages per minute in one group (Telegram: 20). */
  readonly perGroupPerMinute: number;
  /** Messages per second overall (Telegram: 30). */
  readonly globalPerSecond: number;
};

/** The limits Telegram documents for bots. */
export const telegramLimits: ThrottleLimits = { perChatPerSecond: 1, perChatBurst: 3, perGroupPerMinute: 20, globalPerSecond: 30 };

/** A queue in front of sends: every acquire is granted in order per chat, when the buckets allow; nothing is dropped. */
export interface ChatThrottle {
  /** Resolves when a message to this chat may go. */
  acquire(chatId: string): Promise<void>;
  /** How many acquires are waiting. */
  waiting(): number;
}

type Bucket = { tokens: number; updatedAt: number; readonly capacity: number; readonly perMs: number };
type Waiter = { readonly chatId: string; readonly grant: () => void };

/** Options for tests: a clock and a timer. */
export type ThrottleClock = { readonly now: () => number; readonly setTimer: (callback: () => void, delayMs: number) => void };

const realClock: ThrottleClock = { now: () => Date.now(), setTimer: (callback, delayMs) => void setTimeout(callback, delayMs).unref() };

/** Creates the throttle. Group chats (negative ids) also get the per-minute group bucket. */
export function createChatThrottle(limits: ThrottleLimits = telegramLimits, clock: ThrottleClock = realClock): ChatThrottle {
  const buckets = new Map<string, Bucket>();
  const queue: Waiter[] = [];
  let timerDue: number | undefined;

  const bucket = (key: string, capacity: number, perMs: number): Bucket => {
    let found = buckets.get(key);
    if (!found) {
      found = { tokens: capacity, updatedAt: clock.now(), capacity, perMs };
      buckets.set(key, found);
    }
    found.tokens = Math.min(found.capacity, found.tokens + (clock.now() - found.updatedAt) * found.perMs);
    found.updatedAt = clock.now();
    return found;
  };

  const bucketsFor = (chatId: string): Bucket[] => {
    const list = [bucket('*', limits.globalPerSecond, limits.globalPerSecond / 1000), bucket(`chat:${chatId}`, limits.perChatBurst, limits.perChatPerSecond / 1000)];
    if (chatId.startsWith('-')) list.push(bucket(`group:${chatId}`, limits.perGroupPerMinute, limits.perGroupPerMinute / 60_000));
    return list;
  };

  const prune = () => {
    // Buckets refilled to capacity hold no state worth keeping.
    if (buckets.size < 1000) return;
    for (const [key, item] of buckets) if (item.tokens + (clock.now() - item.updatedAt) * item.perMs >= item.capacity) buckets.delete(key);
  };

  const pump = () => {
    prune();
    let soonest = Number.POSITIVE_INFINITY;
    const blocked = new Set<string>();
    for (let index = 0; index < queue.length; ) {
      const waiter = queue[index] as Waiter;
      // Per chat, strictly in order: a later message never overtakes an earlier one.
      if (blocked.has(waiter.chatId)) {
        index += 1;
        continue;
      }
      const needed = bucketsFor(waiter.chatId);
      const wait = Math.max(...needed.map((item) => (item.tokens >= 1 ? 0 : (1 - item.tokens) / item.perMs)));
      if (wait === 0) {
        for (const item of needed) item.tokens -= 1;
        queue.splice(index, 1);
        waiter.grant();
      } else {
        blocked.add(waiter.chatId);
        soonest = Math.min(soonest, wait);
        index += 1;
      }
    }
    if (queue.length > 0 && Number.isFinite(soonest)) {
      const due = clock.now() + Math.ceil(soonest);
      if (timerDue === undefined || due < timerDue) {
        timerDue = due;
        clock.setTimer(() => {
          timerDue = undefined;
          pump();
        }, Math.ceil(soonest));
      }
    }
  };

  return {
    acquire(chatId) {
      return new Promise<void>((resolve) => {
        queue.push({ chatId, grant: resolve });
        pump();
      });
    },
    waiting: () => queue.length,
  };
}
