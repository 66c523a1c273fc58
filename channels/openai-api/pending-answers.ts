import type { ApprovalCard } from '../../src/events/approval-card.js';
import type { TurnFailure } from '../../src/events/turn-failure.js';

/** What a waiting request is answered with. */
export type Answer =
  | { readonly kind: 'reply'; readonly text: string; readonly failure?: TurnFailure }
  | { readonly kind: 'approval'; readonly card: ApprovalCard }
  | { readonly kind: 'question'; readonly questionId: string; readonly text: string; readonly options: readonly string[] }
  | { readonly kind: 'finished'; readonly status: string; readonly text?: string }
  | { readonly kind: 'timeout' };

/** Output before the answer, for a streaming request: a draft of the answer, or a message standing on its own. */
export type Interim = { readonly kind: 'draft' | 'message'; readonly text: string };

/** One request waiting for its turn's answer. */
export type PendingAnswer = {
  readonly runId: string;
  readonly chatId: string;
  /** Messages the turn sent before its answer (a non-streaming request puts them before it). */
  readonly messages: readonly string[];
  /** Resolves with the answer, or `timeout`. */
  readonly answered: Promise<Answer>;
};

/** Requests waiting in this process, by run and by conversation. */
export interface PendingAnswers {
  /** Registers a request before its event is queued; `onInterim` receives drafts and messages (streaming). */
  open(input: { readonly runId: string; readonly chatId: string; readonly timeoutMs: number; readonly onInterim?: (interim: Interim) => void }): PendingAnswer;
  /**
   * The request an output belongs to: the one waiting for its run; for a run whose request was answered with a card or
   * a question (its turn continues later), or output of no run, the newest open request of its conversation (the one
   * that decided or answered it). Output of any other run (its client left, it timed out) belongs to none.
   */
  find(runId: string | undefined, chatId: string): string | undefined;
  /** Whether a request waits for exactly this run. */
  has(runId: string): boolean;
  interim(runId: string, interim: Interim): void;
  settle(runId: string, answer: Answer): void;
  /** The request gave up (it left): its run's later output goes to the conversation's late answers. */
  close(runId: string): void;
  /** Wakes every request with `timeout` (shutdown). */
  clear(): void;
}

type Entry = { readonly runId: string; readonly chatId: string; readonly messages: string[]; readonly resolve: (answer: Answer) => void; readonly onInterim?: (interim: Interim) => void; readonly timer: NodeJS.Timeout };

/** Creates the in-memory table of waiting requests; an entry goes when it is answered, times out or its caller leaves. */
export function createPendingAnswers(options: { readonly maxContinuations?: number } = {}): PendingAnswers {
  const entries = new Map<string, Entry>();
  // Runs answered with a card or a question, oldest first: their turns continue after the request ended.
  const continuing = new Set<string>();
  const maxContinuations = options.maxContinuations ?? 10_000;
  const continues = (runId: string) => {
    continuing.add(runId);
    for (const oldest of continuing) {
      if (continuing.size <= maxContinuations) break;
      continuing.delete(oldest);
    }
  };
  const drop = (runId: string, answer: Answer) => {
    const entry = entries.get(runId);
    if (!entry) return;
    entries.delete(runId);
    clearTimeout(entry.timer);
    entry.resolve(answer);
  };
  return {
    open(input) {
      let resolve: (answer: Answer) => void = () => undefined;
      const answered = new Promise<Answer>((done) => {
        resolve = done;
      });
      const messages: string[] = [];
      const timer = setTimeout(() => drop(input.runId, { kind: 'timeout' }), input.timeoutMs);
      entries.set(input.runId, { runId: input.runId, chatId: input.chatId, messages, resolve, timer, ...(input.onInterim ? { onInterim: input.onInterim } : {}) });
      return { runId: input.runId, chatId: input.chatId, messages, answered };
    },
    find(runId, chatId) {
      if (runId !== undefined && entries.has(runId)) return runId;
      if (runId !== undefined && !continuing.has(runId)) return undefined;
      let newest: string | undefined;
      // A Map keeps insertion order: the last match is the newest request.
      for (const entry of entries.values()) if (entry.chatId === chatId) newest = entry.runId;
      return newest;
    },
    has: (runId) => entries.has(runId),
    interim(runId, interim) {
      const entry = entries.get(runId);
      if (!entry) return;
      if (interim.kind === 'message') entry.messages.push(interim.text);
      entry.onInterim?.(interim);
    },
    settle(runId, answer) {
      if (entries.has(runId) && (answer.kind === 'approval' || answer.kind === 'question')) continues(runId);
      drop(runId, answer);
    },
    close(runId) {
      const entry = entries.get(runId);
      if (!entry) return;
      entries.delete(runId);
      clearTimeout(entry.timer);
    },
    clear() {
      for (const runId of [...entries.keys()]) drop(runId, { kind: 'timeout' });
    },
  };
}
