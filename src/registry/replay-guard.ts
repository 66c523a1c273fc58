import type { KeyValueNamespace } from '../store/key-value-namespace.js';
import type { StartedMarkLog } from './started-mark-log.js';
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
  /**
   * Moves the started marks an earlier process left in the mark file into the store (where a result is not there
   * already); resolves to how many it moved. Until then, and if the store refuses, the file still answers `find`.
   */
  recover(): Promise<number>;
  /** Closes the mark file (after `flush`). */
  close(): void;
}

/** Where the guard keeps its records. */
export type ReplayGuardOptions = {
  readonly store?: KeyValueNamespace<ToolResult>;
  /**
   * The write-ahead file for started marks, when the store is a file on this machine (SQLite): a mark is then one
   * synchronous write instead of an awaited store round trip. Without it the mark goes to the store, awaited
   * (PostgreSQL and Redis, where another process may resume the turn).
   */
  readonly markLog?: StartedMarkLog;
  readonly capacity?: number;
  readonly ttlMs?: number;
};

/** A bounded LRU in memory, backed by the store for 24 h so a restart does not forget. */
export function createReplayGuard(options: ReplayGuardOptions): ReplayGuard {
  const { markLog } = options;
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
      if (!findOptions.memoryOnly) {
        const stored = await options.store?.get(key);
        if (stored) {
          touch(key, stored);
          return stored;
        }
      }
      // Begun (in this process or one before it) and its result not in the store yet: the mark is in the file.
      return markLog?.isPending(key) ? startedMarker : undefined;
    },
    async markStarted(key) {
      if (markLog) markLog.append(key, Date.now() + ttlMs);
      else await options.store?.set(key, startedMarker, ttlMs);
      touch(key, startedMarker);
    },
    async remember(key, result) {
      touch(key, result);
      if (!options.store) return;
      const write = options.store.set(key, result, ttlMs);
      pending.add(write);
      try {
        await write;
        // The result is in the store: the mark's line may go. (A failed write leaves it: after a restart the call is
        // reported as begun with its outcome unknown, as the store's own mark would have said.)
        markLog?.settle(key);
      } finally {
        pending.delete(write);
      }
    },
    async flush() {
      await Promise.allSettled([...pending]);
    },
    async recover() {
      const { store } = options;
      if (!markLog || !store) return 0;
      let moved = 0;
      await Promise.all(
        markLog.recovered().map(async ({ key, expiresAt }) => {
          const ttl = expiresAt - Date.now();
          if (ttl > 0) {
            await store.update(key, (current) => {
              if (current !== undefined) return current;
              moved += 1;
              return startedMarker;
            }, ttl);
          }
          markLog.settle(key);
        }),
      );
      return moved;
    },
    close() {
      markLog?.close();
    },
  };
}
