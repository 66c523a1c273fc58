import type { KeyValueNamespace } from '../store/key-value-namespace.js';
import type { ToolResult } from './tool-outcome.js';

/** A side-effect call that began and whose result is not recorded: it may or may not have happened. */
export const startedMarker = { ok: false, output: '', errorKind: 'internal', metadata: { started: true } } as const satisfies ToolResult;

/** Whether a stored record is only the mark of a call that began (the process died before its result was kept). */
export function isStartedMarker(result: ToolResult): boolean {
  return result.metadata.started === true;
}

/**
 * Remembers side-effect calls by idempotency key, so a call that is replayed (a turn re-run after a
 * crash, a resumed approval run twice) returns the first result, or says its outcome is unknown,
 * instead of acting twice.
 */
export interface ReplayGuard {
  /** The first result (or the started mark) for this key; `memoryOnly` skips the store when no earlier process can have recorded the key. */
  find(key: string, options?: { readonly memoryOnly?: boolean }): Promise<ToolResult | undefined>;
  /** Records, and waits for the store to have it, that the call is about to run: a crash from here on never runs it again. */
  markStarted(key: string): Promise<void>;
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
    async markStarted(key) {
      await options.store?.set(key, startedMarker, ttlMs);
      touch(key, startedMarker);
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
