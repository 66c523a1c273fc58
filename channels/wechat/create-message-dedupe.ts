import type { KeyValueNamespace } from '../../src/store/key-value-namespace.js';

/** Remembers WeChat message ids so a message delivered twice (reconnects, replays) runs once. */
export interface MessageDedupe {
  /** True the first time an id is seen; false for every later time within the TTL. */
  isFirstSighting(messageId: string): Promise<boolean>;
}

/** Where ids are remembered: a bounded set in memory in front of the store (which outlives restarts). */
export type MessageDedupeOptions = {
  readonly store: KeyValueNamespace<number>;
  readonly ttlMs: number;
  readonly memoryLimit: number;
  readonly now?: () => number;
};

/** Creates the dedupe over a store namespace. */
export function createMessageDedupe(options: MessageDedupeOptions): MessageDedupe {
  const now = options.now ?? Date.now;
  const recent = new Set<string>();
  const remember = (id: string) => {
    recent.add(id);
    if (recent.size <= options.memoryLimit) return;
    // A Set iterates in insertion order: the first entry is the oldest.
    const oldest = recent.values().next().value;
    if (oldest !== undefined) recent.delete(oldest);
  };
  return {
    async isFirstSighting(messageId) {
      if (recent.has(messageId)) return false;
      remember(messageId);
      let seenBefore = false;
      await options.store.update(
        messageId,
        (current) => {
          if (current !== undefined) {
            seenBefore = true;
            return current;
          }
          return now();
        },
        options.ttlMs,
      );
      return !seenBefore;
    },
  };
}
