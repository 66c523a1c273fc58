import type { KeyValueNamespace } from '../../src/store/key-value-namespace.js';

/** Decides whether an unknown sender may be told their id now: at most once per period per sender. */
export interface StrangerNotices {
  shouldNotify(senderId: string): Promise<boolean>;
}

/** Stored per sender with a TTL of one period, so the rows clean themselves up. */
export function createStrangerNotices(options: { readonly store: KeyValueNamespace<string>; readonly periodMs?: number; readonly now?: () => Date }): StrangerNotices {
  const periodMs = options.periodMs ?? 60 * 60 * 1000;
  const now = options.now ?? (() => new Date());
  return {
    async shouldNotify(senderId) {
      let fresh = false;
      await options.store.update(
        senderId,
        (last) => {
          if (last !== undefined && now().getTime() - new Date(last).getTime() < periodMs) return last;
          fresh = true;
          return now().toISOString();
        },
        periodMs,
      );
      return fresh;
    },
  };
}
