import type { FactStore } from './create-fact-store.js';
import type { MemoryFact } from './memory-fact.js';
import type { RecallRequest } from './recall-facts.js';

/**
 * The facts a turn may see. A private chat: the person's facts and the chat's. A group: the group's facts and, of the
 * sender's own facts, only those said in this group; a person's facts from elsewhere never reach a group, and a
 * group's facts never reach a private chat (they are in the group's scope, which a private chat does not read).
 */
export async function visibleFacts(facts: FactStore, request: RecallRequest): Promise<readonly MemoryFact[]> {
  const shared = await facts.current({ kind: request.isGroup ? 'group' : 'chat', channel: request.channel, chatId: request.chatId });
  const personal = await facts.current({ kind: 'person', channel: request.channel, userId: request.userId });
  const mine = request.isGroup ? personal.filter((fact) => fact.source.channel === request.channel && fact.source.chatId === request.chatId) : personal;
  return [...shared, ...mine];
}
