import type { TurnFailure } from '../../src/events/turn-failure.js';

/** How a run ended, as far as a waiting request is concerned; a reply with `failure` says the turn could not answer. */
export type RunOutcome =
  | { readonly kind: 'reply'; readonly text: string; readonly messages: readonly string[]; readonly failure?: TurnFailure }
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
  /** Keep the outcome after settling, for replays of the same Idempotency-Key, until forget(). */
  readonly keepOutcome: boolean;
  /** The first request asked to wait and has not given up yet. */
  waited: boolean;
  waiters: Set<(outcome: RunOutcome | 'timeout') => void>;
  messages: string[];
  /** Characters of text this entry holds (messages and the kept outcome). */
  bytes: number;
  waitingFor: 'approval' | 'answer';
  outcome?: RunOutcome;
};

/** Runs in flight in this process, so answers find the request waiting for them. */
export interface PendingRuns {
  /** `keepOutcome`: the request has an Idempotency-Key, so a replay may still ask for the outcome until forget(). */
  register(input: { readonly runId: string; readonly chatId: string; readonly callbackUrl?: string; readonly wait: boolean; readonly keepOutcome?: boolean }): void;
  get(runId: string): PendingRun | undefined;
  /** Resolves with the outcome, or `timeout`; a run already settled (and kept) resolves at once. */
  wait(runId: string, timeoutMs: number): Promise<RunOutcome | 'timeout'>;
  /** The first request gave up (timeout, client gone): later output goes to the callback instead. */
  release(runId: string): void;
  /** A mid-turn message, kept for the waiting answer. */
  addMessage(runId: string, text: string): void;
  markWaitingFor(runId: string, what: 'approval' | 'answer'): void;
  waitingFor(runId: string): 'approval' | 'answer' | undefined;
  /** Ends the run: wakes every waiter; the run is freed at once unless it keeps its outcome for replays. */
  settle(runId: string, outcome: RunOutcome): void;
  /** Frees a run (its answer is delivered and stored elsewhere, or it never started). */
  forget(runId: string): void;
  /** How many runs are kept, and how many characters of text they hold. */
  size(): { readonly runs: number; readonly bytes: number };
  /** Wakes every waiter with `timeout` (shutdown). */
  clear(): void;
}

/** Bounds of the run table. */
export type PendingRunsOptions = {
  /** Runs older than this are dropped (their turn never reported back). */
  readonly maxAgeMs: number;
  /** Most runs kept; the oldest go first. Default 10 000. */
  readonly maxRuns?: number;
  /** Most characters of text (messages, kept outcomes) over all runs; the oldest runs go first. Default 16 Mi. */
  readonly maxBytes?: number;
  readonly now?: () => number;
};

/** Creates the in-memory run table, bounded in age, count and kept text; a delivered answer is not kept. */
export function createPendingRuns(options: PendingRunsOptions): PendingRuns {
  const runs = new Map<string, Entry>();
  const now = options.now ?? Date.now;
  const maxRuns = options.maxRuns ?? 10_000;
  const maxBytes = options.maxBytes ?? 16 * 1024 * 1024;
  let keptBytes = 0;

  function drop(entry: Entry): void {
    wake(entry, 'timeout');
    keptBytes -= entry.bytes;
    runs.delete(entry.runId);
  }

  function hold(entry: Entry, characters: number): void {
    entry.bytes += characters;
    keptBytes += characters;
  }

  /** Drops the oldest runs while any bound is passed; `room` makes space for one more. */
  function prune(room: number): void {
    const oldest = now() - options.maxAgeMs;
    // A Map keeps insertion order: the first entries are the oldest.
    for (const entry of runs.values()) {
      if (entry.createdAt >= oldest && runs.size + room <= maxRuns && keptBytes <= maxBytes) break;
      drop(entry);
    }
  }

  function wake(entry: Entry, outcome: RunOutcome | 'timeout'): void {
    const waiters = [...entry.waiters];
    entry.waiters.clear();
    for (const waiter of waiters) waiter(outcome);
  }

  return {
    register(input) {
      prune(1);
      runs.set(input.runId, {
        runId: input.runId,
        chatId: input.chatId,
        callbackUrl: input.callbackUrl,
        createdAt: now(),
        keepOutcome: input.keepOutcome ?? false,
        waited: input.wait,
        waiters: new Set(),
        messages: [],
        bytes: 0,
        waitingFor: 'approval',
      });
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
      const entry = runs.get(runId);
      if (!entry) return;
      entry.messages.push(text);
      hold(entry, text.length);
      if (keptBytes > maxBytes) prune(0);
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
      // Whoever waited has the answer now: keeping every reply for hours is what made memory grow.
      if (!entry.keepOutcome) {
        drop(entry);
        return;
      }
      hold(entry, 'text' in entry.outcome ? (entry.outcome.text?.length ?? 0) : 0);
      if (keptBytes > maxBytes) prune(0);
    },
    forget(runId) {
      const entry = runs.get(runId);
      if (entry) drop(entry);
    },
    size: () => ({ runs: runs.size, bytes: keptBytes }),
    clear() {
      for (const entry of runs.values()) wake(entry, 'timeout');
      runs.clear();
      keptBytes = 0;
    },
  };
}
