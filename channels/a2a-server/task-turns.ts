/** How a task's turn came out, as the channel saw it. */
export type TurnOutcome =
  | { readonly kind: 'answered'; readonly text: string; readonly failed: boolean }
  | { readonly kind: 'needs-person'; readonly text: string }
  | { readonly kind: 'canceled' };

/** Executors waiting for their task's turn, by the task's chat; in this process's memory. */
export interface TaskTurns {
  /** Registers the wait before the turn is queued. */
  wait(chatId: string): Promise<TurnOutcome>;
  /** Hands the outcome to the executor waiting for this chat; false when none waits (the task is answered in the store). */
  settle(chatId: string, outcome: TurnOutcome): boolean;
  /** Wakes every waiting executor with `canceled` (shutdown). */
  clear(): void;
}

/** Creates the table of waiting executors. */
export function createTaskTurns(): TaskTurns {
  const waiting = new Map<string, (outcome: TurnOutcome) => void>();
  return {
    wait: (chatId) =>
      new Promise((resolve) => {
        waiting.set(chatId, resolve);
      }),
    settle(chatId, outcome) {
      const resolve = waiting.get(chatId);
      if (resolve === undefined) return false;
      waiting.delete(chatId);
      resolve(outcome);
      return true;
    },
    clear() {
      for (const [chatId, resolve] of [...waiting]) {
        waiting.delete(chatId);
        resolve({ kind: 'canceled' });
      }
    },
  };
}
