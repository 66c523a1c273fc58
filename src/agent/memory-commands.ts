import type { ApprovalRouteFor } from '../approvals/approval-route.js';
import type { MessageReceived } from '../events/inbound-event.js';
import type { ReplyButton } from '../events/outbound-event.js';
import type { Messages } from '../i18n/messages.js';
import type { ExchangeArchive } from '../memory/create-exchange-archive.js';
import type { FactStore } from '../memory/create-fact-store.js';
import type { FactScope, MemoryFact } from '../memory/memory-fact.js';
import { visibleFacts } from '../memory/visible-facts.js';
import type { AuditEntry } from '../registry/audit-log.js';
import type { KeyValueNamespace } from '../store/key-value-namespace.js';
import { forgetExchanges, forgetSourceExchanges } from './forget-exchanges.js';

/** The fact ids a `/memory` list showed one person in one chat, in order (namespace `memory-listings`): what `/forget <number>` means. */
export type FactListing = { readonly factIds: readonly string[] };

/** What `/memory` and `/forget` work with. */
export type MemoryCommandDependencies = {
  readonly facts: FactStore;
  readonly audit: (entry: AuditEntry) => void;
  readonly approvalRouteFor: ApprovalRouteFor;
  readonly messages: Messages;
  /** The last list each person saw per chat; without it `/forget <number>` is read as words. */
  readonly listings?: KeyValueNamespace<FactListing>;
  /** Archived exchanges: `/forget <words>` removes those that contain the words too. */
  readonly exchanges?: ExchangeArchive;
};

/** A command's answer: text and, on channels with buttons, one Forget button per listed fact. */
export type MemoryAnswer = { readonly text: string; readonly buttons?: readonly ReplyButton[] };

/** How long `/forget <number>` refers to the last list shown. */
const listingTtlMs = 24 * 60 * 60_000;

const listingKey = (event: MessageReceived) => `${event.channel}|${event.chatId}|${event.sender.id}`;
const groupScopeOf = (event: MessageReceived): FactScope => ({ kind: 'group', channel: event.channel, chatId: event.chatId });

/** Whether the sender approves in this chat (approvers may see and clear a group's memory). */
export function isChatApprover(approvalRouteFor: ApprovalRouteFor, event: Pick<MessageReceived, 'channel' | 'chatId' | 'sender'>): boolean {
  return approvalRouteFor({ channel: event.channel, requesterId: event.sender.id, origin: { channel: event.channel, chatId: event.chatId }, unattended: false }).approvers.includes(event.sender.id);
}

/** The facts `/memory` shows the sender here: those a turn of theirs in this chat may see, oldest first. */
async function factsHere(deps: MemoryCommandDependencies, event: MessageReceived): Promise<readonly MemoryFact[]> {
  return visibleFacts(deps.facts, { channel: event.channel, chatId: event.chatId, userId: event.sender.id, isGroup: event.isGroup, query: '' });
}

/** A numbered list with a Forget button per fact, remembered for `/forget <number>`. */
async function listed(deps: MemoryCommandDependencies, event: MessageReceived, facts: readonly MemoryFact[], wrap: (lines: readonly string[]) => string): Promise<MemoryAnswer> {
  await deps.listings?.set(listingKey(event), { factIds: facts.map((fact) => fact.id) }, listingTtlMs);
  const lines = facts.map((fact, index) =>
    deps.messages.memory.line({ number: index + 1, statement: fact.statement, authorName: fact.source.authorName, date: fact.source.at.slice(0, 10), ...(fact.source.channel === event.channel ? {} : { elsewhere: fact.source.channel }) }),
  );
  const buttons = facts.map((fact, index): ReplyButton => ({ label: deps.messages.memory.forgetButton(index + 1), action: 'memory-forget', actionId: fact.id }));
  return { text: wrap(lines), buttons };
}

/** `/memory`: the facts held here, numbered, each with who said it and when; `/memory group`: an approver's view of the whole group scope. */
export async function memoryCommand(deps: MemoryCommandDependencies, event: MessageReceived, args: readonly string[]): Promise<MemoryAnswer> {
  if (args[0]?.toLowerCase() === 'group') {
    const refusal = groupRefusal(deps, event);
    if (refusal !== undefined) return { text: refusal };
    const facts = await deps.facts.current(groupScopeOf(event));
    return facts.length === 0 ? { text: deps.messages.memory.groupEmpty } : listed(deps, event, facts, deps.messages.memory.groupList);
  }
  const facts = await factsHere(deps, event);
  return facts.length === 0 ? { text: deps.messages.memory.empty } : listed(deps, event, facts, deps.messages.memory.list);
}

/** Kept for callers that want the list's text alone. */
export async function memoryListText(deps: MemoryCommandDependencies, event: MessageReceived): Promise<string> {
  return (await memoryCommand(deps, event, [])).text;
}

function groupRefusal(deps: MemoryCommandDependencies, event: MessageReceived): string | undefined {
  if (!event.isGroup) return deps.messages.memory.groupOnlyInGroups;
  return isChatApprover(deps.approvalRouteFor, event) ? undefined : deps.messages.memory.groupOnlyApprovers;
}

/**
 * `/forget <words>`: forgets the facts here whose statement or subject contains every word, at once (the next turn
 * does not see them) and with every older version of them; audited. In a group, a fact of the group is forgotten
 * only by its author or an approver. `/forget <number> …` forgets facts of the sender's last `/memory` list here;
 * `/forget group <words>` and `/forget group all` are an approver's, for the group's own facts.
 */
export async function forgetText(deps: MemoryCommandDependencies, event: MessageReceived, words: readonly string[]): Promise<string> {
  if (words.length === 0) return deps.messages.memory.usageForget;
  if (words[0]?.toLowerCase() === 'group') return forgetGroup(deps, event, words.slice(1));
  const isApprover = isChatApprover(deps.approvalRouteFor, event);
  const mayForget = (fact: MemoryFact) => fact.scope.kind !== 'group' || isApprover || fact.source.authorId === event.sender.id;
  const here = await factsHere(deps, event);
  const listed = words.every((word) => /^[1-9]\d{0,3}$/.test(word)) ? await deps.listings?.get(listingKey(event)) : undefined;
  // A number past the list's end is read as words ("/forget 2024" about a fact that mentions the year).
  const listing = listed !== undefined && words.every((word) => Number(word) <= listed.factIds.length) ? listed : undefined;
  if (listing !== undefined) {
    const ids = words.map((word) => listing.factIds[Number(word) - 1]);
    const group = event.isGroup && isApprover ? await deps.facts.current(groupScopeOf(event)) : [];
    const reachable = [...here, ...group].filter(mayForget);
    const chosen = ids.map((id) => reachable.find((fact) => fact.id === id));
    const missing = words.filter((_, index) => chosen[index] === undefined);
    if (missing.length > 0) return deps.messages.memory.noSuchNumber(missing.join(', '));
    return deps.messages.memory.forgotten(await forgetFacts(deps, event, chosen.flatMap((fact) => (fact === undefined ? [] : [fact])), { numbers: words.join(' ') }));
  }
  const matching = here.filter((fact) => mayForget(fact) && matchesWords(fact, words));
  const facts = matching.length === 0 ? 0 : await forgetFacts(deps, event, matching, { words: words.join(' ') });
  const exchanges = await forgetExchanges(deps, event, { words, isApprover });
  if (facts === 0 && exchanges === 0) return deps.messages.memory.nothingToForget(words.join(' '));
  return forgottenText(deps, facts, exchanges);
}

/** What `/forget` removed: facts, and past exchanges when there were any. */
function forgottenText(deps: MemoryCommandDependencies, facts: number, exchanges: number): string {
  if (exchanges === 0) return deps.messages.memory.forgotten(facts);
  const exchangesText = deps.messages.memory.forgottenExchanges(exchanges);
  return facts === 0 ? exchangesText : `${deps.messages.memory.forgotten(facts)} ${exchangesText}`;
}

async function forgetGroup(deps: MemoryCommandDependencies, event: MessageReceived, words: readonly string[]): Promise<string> {
  const refusal = groupRefusal(deps, event);
  if (refusal !== undefined) return refusal;
  if (words.length === 0) return deps.messages.memory.usageForgetGroup;
  const scope = groupScopeOf(event);
  if (words.length === 1 && words[0]?.toLowerCase() === 'all') {
    const deleted = await deps.facts.clear(scope);
    deps.audit({ kind: 'memory-forgotten', sessionKey: event.sessionKey, userId: event.sender.id, channel: event.channel, arguments: { scope, cleared: true, factIds: deleted }, outcome: `forgotten:${deleted.length}` });
    return forgottenText(deps, deleted.length, await forgetExchanges(deps, event, { words: 'all', isApprover: true }));
  }
  const matching = (await deps.facts.current(scope)).filter((fact) => matchesWords(fact, words));
  const facts = matching.length === 0 ? 0 : await forgetFacts(deps, event, matching, { words: words.join(' ') });
  const exchanges = await forgetExchanges(deps, event, { words, isApprover: true });
  if (facts === 0 && exchanges === 0) return deps.messages.memory.nothingToForget(words.join(' '));
  return forgottenText(deps, facts, exchanges);
}

function matchesWords(fact: MemoryFact, words: readonly string[]): boolean {
  const text = `${fact.subject} ${fact.statement}`.toLowerCase();
  return words.every((word) => text.includes(word.toLowerCase()));
}

/** Forgets facts (and the archived exchanges they were taken from), one compare-and-set and one `memory-forgotten` audit entry per scope; resolves to how many were asked for. */
export async function forgetFacts(deps: Pick<MemoryCommandDependencies, 'facts' | 'audit' | 'exchanges'>, event: Pick<MessageReceived, 'sessionKey' | 'sender' | 'channel'>, facts: readonly MemoryFact[], how: Readonly<Record<string, string>>): Promise<number> {
  const byScope = new Map<string, { readonly fact: MemoryFact; readonly ids: string[] }>();
  for (const fact of facts) {
    const key = JSON.stringify(fact.scope);
    const entry = byScope.get(key) ?? { fact, ids: [] };
    if (!entry.ids.includes(fact.id)) entry.ids.push(fact.id);
    byScope.set(key, entry);
  }
  let forgotten = 0;
  for (const { fact, ids } of byScope.values()) {
    const versions = await deps.facts.history(fact.scope);
    const deleted = await deps.facts.forget(fact.scope, ids);
    forgotten += ids.length;
    // The exchanges the forgotten facts (every version) were taken from go with them.
    const sourceExchanges = await forgetSourceExchanges(deps, versions.filter((known) => deleted.includes(known.id)).map((known) => known.source));
    deps.audit({ kind: 'memory-forgotten', sessionKey: event.sessionKey, userId: event.sender.id, channel: event.channel, arguments: { scope: fact.scope, ...how, factIds: deleted, sourceExchanges }, outcome: `forgotten:${deleted.length}` });
  }
  return forgotten;
}
