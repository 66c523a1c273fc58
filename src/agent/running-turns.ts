/** One turn running in this process, as its session's cancel sees it. */
export type RunningTurn = {
  /** True once a cancel reached it: the turn sends nothing more. */
  isCancelled(): boolean;
  /** Who cancelled it, once a cancel reached it. */
  cancelledBy(): string | undefined;
  /** Unregisters it (the turn ended, however). */
  end(): void;
};

/** The turns running in this process, by session: a cancel aborts their model calls and tools. */
export interface RunningTurns {
  /**
   * Registers a running turn; a cancel of its session aborts `controller` (the turn's deadline, as a timeout would).
   * A turn whose event was queued (`queuedAt`) before a cancel of its session that came first starts cancelled.
   */
  begin(sessionKey: string, controller: AbortController, queuedAt?: string): RunningTurn;
  /**
   * Aborts every turn running in the session, for `by`, and those of it still queued; returns how many were running.
   * `at` is when the cancel was made (ms since the epoch; default now): another instance's cancel arrives a little later.
   */
  cancel(sessionKey: string, by: string, at?: number): number;
}

/** How long a cancel still stops a turn queued before it that had not started (in this process). */
const queuedCancelMs = 60 * 60 * 1000;

type Entry = { readonly controller: AbortController; cancelledBy: string | undefined };

/** Creates the table of running turns (in this process's memory). */
export function createRunningTurns(options: { readonly now?: () => Date } = {}): RunningTurns {
  const now = options.now ?? (() => new Date());
  const bySession = new Map<string, Set<Entry>>();
  // Recent cancels by session, for turns queued before them that start after them.
  const cancels = new Map<string, { readonly at: number; readonly by: string }>();
  const abort = (entry: Entry, by: string) => {
    entry.cancelledBy = by;
    entry.controller.abort(new Error('the turn was cancelled'));
  };
  return {
    begin(sessionKey, controller, queuedAt) {
      const entry: Entry = { controller, cancelledBy: undefined };
      const entries = bySession.get(sessionKey) ?? new Set();
      entries.add(entry);
      bySession.set(sessionKey, entries);
      const cancel = cancels.get(sessionKey);
      if (cancel !== undefined && queuedAt !== undefined && Date.parse(queuedAt) <= cancel.at) abort(entry, cancel.by);
      return {
        isCancelled: () => entry.cancelledBy !== undefined,
        cancelledBy: () => entry.cancelledBy,
        end() {
          entries.delete(entry);
          if (entries.size === 0 && bySession.get(sessionKey) === entries) bySession.delete(sessionKey);
        },
      };
    },
    cancel(sessionKey, by, at = now().getTime()) {
      for (const [key, cancel] of cancels) if (at - cancel.at > queuedCancelMs) cancels.delete(key);
      if (at >= (cancels.get(sessionKey)?.at ?? Number.NEGATIVE_INFINITY)) cancels.set(sessionKey, { at, by });
      const entries = bySession.get(sessionKey);
      if (entries === undefined) return 0;
      for (const entry of entries) abort(entry, by);
      return entries.size;
    },
  };
}
