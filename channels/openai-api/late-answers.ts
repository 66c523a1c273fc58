import type { KeyValueNamespace } from '../../src/store/key-value-namespace.js';

/** How many late answers a conversation keeps, and for how long. */
export const lateAnswerLimits = { perConversation: 20, maxChars: 32_000, ttlMs: 7 * 24 * 60 * 60 * 1000 } as const;

/**
 * Answers no request was waiting for (the client left, the turn continued after a card was decided elsewhere), kept per
 * conversation until its next request, which returns them before its own answer.
 */
export interface LateAnswers {
  add(chatId: string, text: string): Promise<void>;
  /** Returns and forgets the conversation's late answers, oldest first. */
  take(chatId: string): Promise<readonly string[]>;
}

/** Creates the late answers over a store namespace (durable: they survive a restart). */
export function createLateAnswers(namespace: KeyValueNamespace<readonly string[]>): LateAnswers {
  return {
    async add(chatId, text) {
      const kept = text.length > lateAnswerLimits.maxChars ? `${text.slice(0, lateAnswerLimits.maxChars)}…` : text;
      await namespace.update(chatId, (current) => [...(current ?? []), kept].slice(-lateAnswerLimits.perConversation), lateAnswerLimits.ttlMs);
    },
    async take(chatId) {
      const found = await namespace.get(chatId);
      if (found === undefined || found.length === 0) return [];
      await namespace.delete(chatId);
      return found;
    },
  };
}
