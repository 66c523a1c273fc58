import type { KeyValueNamespace } from '../store/key-value-namespace.js';
import type { ChatMessage } from '../model/chat-message.js';
import { isCompactionSummary } from '../memory/compaction-summary.js';
import { messageSize as sizeOf } from '../memory/message-size.js';

/** A session's stored conversation. */
export type SessionRecord = { readonly messages: readonly ChatMessage[]; readonly updatedAt: string };

/** Persisted conversation per session key, bounded by a character budget. */
export interface SessionHistory {
  load(sessionKey: string): Promise<readonly ChatMessage[]>;
  append(sessionKey: string, messages: readonly ChatMessage[]): Promise<void>;
  /** Rewrites the stored messages in one compare-and-set step. */
  update(sessionKey: string, change: (messages: readonly ChatMessage[]) => readonly ChatMessage[]): Promise<readonly ChatMessage[]>;
  reset(sessionKey: string): Promise<void>;
}

/**
 * Drops the oldest exchanges until the history fits the budget. It cuts only before a user
 * message, so an assistant message with tool calls is never separated from its tool results.
 * When the newest exchange alone is over the budget, its longest texts are cut (with a note), so no
 * single message is re-sent whole with every later turn.
 */
export function trimHistory(messages: readonly ChatMessage[], budgetChars: number): readonly ChatMessage[] {
  // A compaction summary at the head stays there: it stands for everything before it.
  const [head] = messages;
  if (head !== undefined && isCompactionSummary(head)) return [head, ...trimHistory(messages.slice(1), Math.max(0, budgetChars - sizeOf(head)))];
  const kept = dropOldestExchanges(messages, budgetChars);
  const total = kept.reduce((sum, message) => sum + sizeOf(message), 0);
  if (total <= budgetChars) return kept;
  const share = Math.max(200, Math.floor(budgetChars / Math.max(2, kept.length)));
  return kept.map((message) => (message.content.length > share ? { ...message, content: cutText(message.content, share) } : message));
}

function cutText(text: string, keep: number): string {
  return `${text.slice(0, keep)}\n[cut to fit the history budget: ${text.length - keep} more characters not kept]`;
}

function dropOldestExchanges(messages: readonly ChatMessage[], budgetChars: number): readonly ChatMessage[] {
  let total = messages.reduce((sum, message) => sum + sizeOf(message), 0);
  if (total <= budgetChars) return messages;
  const cutPoints: number[] = [];
  for (const [index, message] of messages.entries()) if (message.role === 'user' && index > 0) cutPoints.push(index);
  let start = 0;
  for (const cut of cutPoints) {
    if (total <= budgetChars) break;
    for (let index = start; index < cut; index += 1) total -= sizeOf(messages[index] as ChatMessage);
    start = cut;
  }
  return messages.slice(start);
}

/** Creates session history over a store namespace. */
export function createSessionHistory(store: KeyValueNamespace<SessionRecord>, options: { readonly budgetChars: number; readonly idleTtlMs?: number }): SessionHistory {
  const write = (messages: readonly ChatMessage[]): SessionRecord => ({ messages: trimHistory(messages, options.budgetChars), updatedAt: new Date().toISOString() });
  // Every write renews the lifetime: a conversation is forgotten only after it went unused this long.
  const ttlMs = options.idleTtlMs;
  return {
    async load(sessionKey) {
      return (await store.get(sessionKey))?.messages ?? [];
    },
    async append(sessionKey, messages) {
      if (messages.length === 0) return;
      await store.update(sessionKey, (current) => write([...(current?.messages ?? []), ...messages]), ttlMs);
    },
    async update(sessionKey, change) {
      const next = await store.update(sessionKey, (current) => write(change(current?.messages ?? [])), ttlMs);
      return next?.messages ?? [];
    },
    async reset(sessionKey) {
      await store.delete(sessionKey);
    },
  };
}
