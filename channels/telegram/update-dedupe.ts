import type { KeyValueNamespace } from '../../src/store/key-value-namespace.js';

/** Remembers which update ids were dispatched, so a re-delivered update never runs twice. */
export interface UpdateDedupe {
  /** Claims an update id: true the first time, false when it was seen before. */
  claim(updateId: number): Promise<boolean>;
  /** Gives a claim back (the update was not dispatched after all, e.g. the bus was closing). */
  release(updateId: number): Promise<void>;
}

/** Options: the store namespace, the key (one per bot) and how many recent ids to keep. */
export type UpdateDedupeOptions = {
  readonly store: KeyValueNamespace<number[]>;
  readonly key: string;
  readonly window?: number;
};

/**
 * A bounded, persisted window of the most recent update ids (one store row per bot). Ids are not
 * compared by size: Telegram restarts its numbering at random after a week without updates.
 */
export function createUpdateDedupe(options: UpdateDedupeOptions): UpdateDedupe {
  const window = options.window ?? 1000;
  return {
    async claim(updateId) {
      let isNew = false;
      await options.store.update(options.key, (seen = []) => {
        if (seen.includes(updateId)) return seen;
        isNew = true;
        return [...seen, updateId].slice(-window);
      });
      return isNew;
    },
    async release(updateId) {
      await options.store.update(options.key, (seen = []) => seen.filter((id) => id !== updateId));
    },
  };
}
