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
  /** Registers a running turn; a cancel of its session aborts `controller` (the turn's deadline, as a timeout would). */
  begin(sessionKey: string, controller: AbortController): RunningTurn;
  /** Aborts every turn running in the session, for `by`; returns how many. */
  cancel(sessionKey: string, by: string): number;
}

/** Creates the table of running turns (in this process's memory). */
export function createRunningTurns(): RunningTurns {
  const bySession = new Map<string, Set<{ readonly controller: AbortController; cancelledBy: string | undefined }>>();
  return {
    begin(sessionKey, controller) {
      const entry: { readonly controller: AbortController; cancelledBy: string | undefined } = { controller, cancelledBy: undefined };
      const entries = bySession.get(sessionKey) ?? new Set();
      entries.add(entry);
      bySession.set(sessionKey, entries);
      return {
        isCancelled: () => entry.cancelledBy !== undefined,
        cancelledBy: () => entry.cancelledBy,
        end() {
          entries.delete(entry);
          if (entries.size === 0 && bySession.get(sessionKey) === entries) bySession.delete(sessionKey);
        },
      };
    },
    cancel(sessionKey, by) {
      const entries = bySession.get(sessionKey);
      if (entries === undefined) return 0;
      for (const entry of entries) {
        entry.cancelledBy = by;
        entry.controller.abort(new Error('the turn was cancelled'));
      }
      return entries.size;
    },
  };
}
