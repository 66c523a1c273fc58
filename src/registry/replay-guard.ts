import type { KeyValueNamespace } from '../store/key-value-namespace.js';
import type { ToolResult } from './tool-outcome.js';

/** Remembers side-effect results by idempotency key so a replayed call returns the first result instead of acting twice. */
export interface ReplayGuard {
  /** The first result for this key; `memoryOnly` skips the store when no earlier process can have recorded the key. */
  find(key: string, options?: { readonly memoryOnly?: boolean }): Promise<ToolResult | undefined>;
  /** Remembers at once in memory; the promise settles when the store has it too. */
  remember(key: string, result: ToolResult): Promise<void>;
  /** Waits until every record given to `remember` is in the store (before the store closes). */
  flush(): Promise<void>;
}

/** A bounded LRU in memory, backed by the store for 24 h so a restart does not forget. */
export function createReplayGuard(options: { readonly store?: KeyValueNamespace<ToolResult>; readonly capacity?: number; readonly ttlMs?: number }): ReplayGuard {
  const capacity = options.capacity ?? 5000;
  const ttlMs = options.ttlMs ?? 24 * 60 * 60 * 1000;
  const recent = new Map<string, ToolResult>();
  const pending = new Set<Promise<void>>();

  function touch(key: string, result: ToolResult): void {
    recent.delete(key);
    recent.set(key, result);
    if (recent.size > capacity) {
      const oldest = recent.keys().next();
      if (!oldest.done) recent.delete(oldest.value);
    }
  }

  return {
    async find(key, findOptions = {}) {
      const cached = recent.get(key);
      if (cached) {
        touch(key, cached);
        return cached;
      }
      if (findOptions.memoryOnly) return undefined;
      const stored = await options.store?.get(key);
      if (stored) touch(key, stored);
      return stored;
    },
    async remember(key, result) {
      touch(key, result);
      if (!options.store) return;
      const write = options.store.set(key, result, ttlMs);
      pending.add(write);
      try {
        await write;
      } finally {
        pending.delete(write);
      }
    },
    async flush() {
      await Promise.allSettled([...pending]);
    },
  };
}
