/** What the runtime answered a decision: the outcome line, or a refusal (`refused`: the card was not decided by it). */
export type DecisionAnswer = { readonly kind: 'answered'; readonly text: string; readonly refused: boolean } | { readonly kind: 'timeout' };

/** Decisions sent over HTTP that wait for the runtime's answer, by the handle the answer carries. */
export interface DecisionWaiters {
  wait(requestId: string, timeoutMs: number): Promise<DecisionAnswer>;
  /** True when a request waited for this handle. */
  answer(requestId: string, answer: DecisionAnswer): boolean;
  clear(): void;
}

/** Creates the in-memory table of waiting decisions. */
export function createDecisionWaiters(): DecisionWaiters {
  const waiting = new Map<string, { readonly resolve: (answer: DecisionAnswer) => void; readonly timer: NodeJS.Timeout }>();
  const settle = (requestId: string, answer: DecisionAnswer): boolean => {
    const entry = waiting.get(requestId);
    if (!entry) return false;
    waiting.delete(requestId);
    clearTimeout(entry.timer);
    entry.resolve(answer);
    return true;
  };
  return {
    wait: (requestId, timeoutMs) =>
      new Promise((resolve) => {
        waiting.set(requestId, { resolve, timer: setTimeout(() => settle(requestId, { kind: 'timeout' }), timeoutMs) });
      }),
    answer: settle,
    clear() {
      for (const requestId of [...waiting.keys()]) settle(requestId, { kind: 'timeout' });
    },
  };
}
