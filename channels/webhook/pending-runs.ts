/** How a run ended, as far as a waiting request is concerned. */
export type RunOutcome =
  | { readonly kind: 'reply'; readonly text: string; readonly messages: readonly string[] }
  | { readonly kind: 'suspended'; readonly waitingFor: 'approval' | 'answer'; readonly detail?: string }
  | { readonly kind: 'finished'; readonly status: string; readonly text?: string };

/** A run the gateway started and may still answer: to a waiting request, or to its callback URL. */
export type PendingRun = {
  readonly runId: string;
  readonly chatId: string;
  readonly callbackUrl?: string;
  /** True while the request that started the run holds its connection open for the answer. */
  readonly heldByRequest: boolean;
  /** True while any request (the first, or a replay of it) waits for the answer. */
  readonly hasWaiters: boolean;
};

type Entry = {
  readonly runId: string;
  readonly chatId: string;
  readonly callbackUrl?: string;
  readonly createdAt: number;
  /** The first request asked to wait and has not given up yet. */
  waited: boolean;
  waiters: Set<(outcome: RunOutcome | 'timeout') => void>;
  messages: string[];
  waitingFor: 'approval' | 'answer';
  outcome?: RunOutcome;
};

/** Runs in flight in this process, so answers find the request waiting for them. */
export interface PendingRuns {
  register(input: { readonly runId: string; readonly chatId: string; readonly callbackUrl?: string; readonly wait: boolean }): void;
  get(runId: string): PendingRun | undefined;
  /** Resolves with the outcome, or `timeout`; a run already settled resolves at once. */
  wait(runId: string, timeoutMs: number): Promise<RunOutcome | 'timeout'>;
  /** The first request gave up (timeout, client gone): later output goes to the callback instead. */
  release(runId: string): void;
  /** A mid-turn message, kept for the waiting answer. */
  addMessage(runId: string, text: string): void;
  markWaitingFor(runId: string, what: 'approval' | 'answer'): void;
  waitingFor(runId: string): 'approval' | 'answer' | undefined;
  /** Ends the run: wakes every waiter; the outcome stays for late replays until the run ages out. */
  settle(runId: string, outcome: RunOutcome): void;
  forget(runId: string): void;
  /** Wakes every waiter with `timeout` (shutdown). */
  clear(): void;
}

/** Creates the in-memory run table; runs older than `maxAgeMs` are dropped (their turn never reported back). */
export function createPendingRuns(options: { readonly maxAgeMs: number; readonly now?: () => number }): PendingRuns {
  const runs = new Map<string, Entry>();
  const now = options.now ?? Date.now;

  function prune(): void {
    const oldest = now() - options.maxAgeMs;
    for (const [runId, entry] of runs) {
      if (entry.createdAt >= oldest) break;
      wake(entry, 'timeout');
      runs.delete(runId);
    }
  }

  function wake(entry: Entry, outcome: RunOutcome | 'timeout'): void {
    const waiters = [...entry.waiters];
    entry.waiters.clear();
    for (const waiter of waiters) waiter(outcome);
  }

  return {
    register(input) {
      prune();
      runs.set(input.runId, { runId: input.runId, chatId: input.chatId, callbackUrl: input.callbackUrl, createdAt: now(), waited: input.wait, waiters: new Set(), messages: [], waitingFor: 'approval' });
    },
    get(runId) {
      const entry = runs.get(runId);
      if (!entry) return undefined;
      const open = entry.outcome === undefined;
      return { runId, chatId: entry.chatId, callbackUrl: entry.callbackUrl, heldByRequest: open && entry.waited, hasWaiters: open && (entry.waited || entry.waiters.size > 0) };
    },
    wait(runId, timeoutMs) {
      const entry = runs.get(runId);
      if (!entry) return Promise.resolve('timeout');
      if (entry.outcome) return Promise.resolve(entry.outcome);
      return new Promise((resolve) => {
        const waiter = (outcome: RunOutcome | 'timeout') => {
          clearTimeout(timer);
          resolve(outcome);
        };
        const timer = setTimeout(() => {
          entry.waiters.delete(waiter);
          resolve('timeout');
        }, timeoutMs);
        entry.waiters.add(waiter);
      });
    },
    release(runId) {
      const entry = runs.get(runId);
      if (entry) entry.waited = false;
    },
    addMessage(runId, text) {
      runs.get(runId)?.messages.push(text);
    },
    markWaitingFor(runId, what) {
      const entry = runs.get(runId);
      if (entry) entry.waitingFor = what;
    },
    waitingFor(runId) {
      return runs.get(runId)?.waitingFor;
    },
    settle(runId, outcome) {
      const entry = runs.get(runId);
      if (!entry || entry.outcome) return;
      entry.outcome = outcome.kind === 'reply' ? { ...outcome, messages: [...entry.messages] } : outcome;
      wake(entry, entry.outcome);
    },
    forget(runId) {
      runs.delete(runId);
    },
    clear() {
      for (const entry of runs.values()) wake(entry, 'timeout');
      runs.clear();
    },
  };
}
