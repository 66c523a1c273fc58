/** How a task's turn came out, as the channel saw it. */
export type TurnOutcome =
  | { readonly kind: 'answered'; readonly text: string; readonly failed: boolean }
  | { readonly kind: 'needs-person'; readonly text: string }
  | { readonly kind: 'canceled' };

/** Executors waiting for their task's turn, by the task's chat; in this process's memory. */
export interface TaskTurns {
  /** Registers the wait before the turn is queued. */
  wait(chatId: string): Promise<TurnOutcome>;
  /** Hands the outcome to every executor waiting for this chat; false when none waits (the task is answered in the store). */
  settle(chatId: string, outcome: TurnOutcome): boolean;
  /** Wakes every waiting executor with `canceled` (shutdown). */
  clear(): void;
}

/** Creates the table of waiting executors. A second message on a task still running waits beside the first. */
export function createTaskTurns(): TaskTurns {
  const waiting = new Map<string, ((outcome: TurnOutcome) => void)[]>();
  const settle = (chatId: string, outcome: TurnOutcome): boolean => {
    const waiters = waiting.get(chatId);
    if (waiters === undefined) return false;
    waiting.delete(chatId);
    for (const resolve of waiters) resolve(outcome);
    return true;
  };
  return {
    wait: (chatId) =>
      new Promise((resolve) => {
        waiting.set(chatId, [...(waiting.get(chatId) ?? []), resolve]);
      }),
    settle,
    clear() {
      for (const chatId of [...waiting.keys()]) settle(chatId, { kind: 'canceled' });
    },
  };
}
