import type { KeyValueNamespace } from '../../src/store/key-value-namespace.js';

/** Remembers which update ids were dispatched, so a re-delivered update never runs twice. */
export interface UpdateDedupe {
  /** Claims an update id: true the first time, false when it was seen before. */
  claim(updateId: number): Promise<boolean>;
  /** Gives a claim back (the update was not dispatched after all, e.g. the bus was closing). */
  release(updateId: number): Promise<void>;
}

/** Options: the store namespace, the key prefix (one per bot), how many recent ids to keep in memory, how long a claim lasts. */
export type UpdateDedupeOptions = {
  readonly store: KeyValueNamespace<number>;
  readonly key: string;
  readonly window?: number;
  /** Telegram re-delivers within 24 h; a claim is kept a week. */
  readonly ttlMs?: number;
};

/**
 * One small store row per claimed update id (with a TTL), plus the most recent ids in memory so a
 * duplicate from this process is answered without the store. Ids are not compared by size: Telegram
 * restarts its numbering at random after a week without updates.
 */
export function createUpdateDedupe(options: UpdateDedupeOptions): UpdateDedupe {
  const window = options.window ?? 1000;
  const ttlMs = options.ttlMs ?? 7 * 24 * 60 * 60 * 1000;
  const recent = new Set<number>();
  const rowKey = (updateId: number) => `${options.key}:${updateId}`;
  const remember = (updateId: number) => {
    recent.add(updateId);
    if (recent.size > window) recent.delete(recent.values().next().value as number);
  };
  return {
    async claim(updateId) {
      if (recent.has(updateId)) return false;
      let isNew = false;
      await options.store.update(
        rowKey(updateId),
        (claimed) => {
          if (claimed !== undefined) return claimed;
          isNew = true;
          return Date.now();
        },
        ttlMs,
      );
      remember(updateId);
      return isNew;
    },
    async release(updateId) {
      recent.delete(updateId);
      await options.store.delete(rowKey(updateId));
    },
  };
}
