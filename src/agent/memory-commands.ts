import type { MessageReceived } from '../events/inbound-event.js';
import type { Messages } from '../i18n/messages.js';
import type { FactStore } from '../memory/create-fact-store.js';
import type { MemoryFact } from '../memory/memory-fact.js';
import { visibleFacts } from '../memory/recall-facts.js';
import type { AuditEntry } from '../registry/audit-log.js';
import type { ApprovalRouteFor } from '../approvals/approval-route.js';

/** What `/memory` and `/forget` work with. */
export type MemoryCommandDependencies = {
  readonly facts: FactStore;
  readonly audit: (entry: AuditEntry) => void;
  readonly approvalRouteFor: ApprovalRouteFor;
  readonly messages: Messages;
};

/** The facts `/memory` shows the sender here: those a turn of theirs in this chat may see, oldest first. */
async function factsHere(deps: MemoryCommandDependencies, event: MessageReceived): Promise<readonly MemoryFact[]> {
  return visibleFacts(deps.facts, { channel: event.channel, chatId: event.chatId, userId: event.sender.id, isGroup: event.isGroup, query: '' });
}

/** `/memory`: the facts held here, numbered, each with who said it and when. */
export async function memoryListText(deps: MemoryCommandDependencies, event: MessageReceived): Promise<string> {
  const facts = await factsHere(deps, event);
  if (facts.length === 0) return deps.messages.memory.empty;
  return deps.messages.memory.list(facts.map((fact, index) => deps.messages.memory.line({ number: index + 1, statement: fact.statement, authorName: fact.source.authorName, date: fact.source.at.slice(0, 10) })));
}

/**
 * `/forget <words>`: forgets the facts here whose statement or subject contains every word, at once (the next turn
 * does not see them) and with every older version of them; audited. In a group, a fact of the group is forgotten
 * only by its author or an approver.
 */
export async function forgetText(deps: MemoryCommandDependencies, event: MessageReceived, words: readonly string[]): Promise<string> {
  if (words.length === 0) return deps.messages.memory.usageForget;
  const needles = words.map((word) => word.toLowerCase());
  const isApprover = deps.approvalRouteFor({ channel: event.channel, requesterId: event.sender.id, origin: { channel: event.channel, chatId: event.chatId }, unattended: false }).approvers.includes(event.sender.id);
  const matching = (await factsHere(deps, event)).filter((fact) => {
    const text = `${fact.subject} ${fact.statement}`.toLowerCase();
    const mayForget = fact.scope.kind !== 'group' || isApprover || fact.source.authorId === event.sender.id;
    return mayForget && needles.every((needle) => text.includes(needle));
  });
  if (matching.length === 0) return deps.messages.memory.nothingToForget(words.join(' '));
  const byScope = new Map<string, { readonly fact: MemoryFact; readonly ids: string[] }>();
  for (const fact of matching) {
    const key = JSON.stringify(fact.scope);
    const entry = byScope.get(key) ?? { fact, ids: [] };
    entry.ids.push(fact.id);
    byScope.set(key, entry);
  }
  let forgotten = 0;
  for (const { fact, ids } of byScope.values()) {
    const deleted = await deps.facts.forget(fact.scope, ids);
    forgotten += ids.length;
    deps.audit({ kind: 'memory-forgotten', sessionKey: event.sessionKey, userId: event.sender.id, channel: event.channel, arguments: { scope: fact.scope, words: words.join(' '), factIds: deleted }, outcome: `forgotten:${deleted.length}` });
  }
  return deps.messages.memory.forgotten(forgotten);
}
