import type { ChatMessage } from '../model/chat-message.js';
import type { KeyValueNamespace } from '../store/key-value-namespace.js';
import { isCompactionSummary, summaryTextOf } from './compaction-summary.js';
import type { ExchangeArchive } from './create-exchange-archive.js';
import type { FactStore } from './create-fact-store.js';
import type { IdentityLinks, PersonIdentity } from './create-identity-links.js';
import type { MemoryExchange } from './memory-exchange.js';
import { factScopeKey, type MemoryFact } from './memory-fact.js';

/** A stored session as far as memory reads it: its messages (the first may be a compaction summary). */
export type StoredSession = { readonly messages: readonly ChatMessage[] };

/** Everything memory holds about one person: their person scope (linked identities included), the facts they stated elsewhere, the summaries of their conversations and their archived exchanges. */
export type PersonMemory = {
  readonly identities: readonly PersonIdentity[];
  /** Their person scope, replaced facts included. */
  readonly personFacts: readonly MemoryFact[];
  /** Facts they stated into a group's or a private chat's scope. */
  readonly statedElsewhere: readonly MemoryFact[];
  readonly summaries: readonly { readonly sessionKey: string; readonly summary: string }[];
  /** Their archived exchanges: those of their private chats, and their own messages (with the answers) in groups. */
  readonly exchanges: readonly MemoryExchange[];
};

/** Where memory lives, for an operator's export and delete. */
export type PersonMemorySources = {
  readonly facts: FactStore;
  readonly identities: IdentityLinks;
  readonly sessions: KeyValueNamespace<StoredSession>;
  /** The exchange archive (absent: there are no exchanges to export or delete). */
  readonly exchanges?: ExchangeArchive;
  /** The last `/memory` lists shown (`<channel>|<chat>|<userId>`), deleted with the rest. */
  readonly listings?: KeyValueNamespace<unknown>;
};

/** A person's sessions: their private chat (`<channel>:<userId>`) and their per-person sessions in groups (`<channel>:<chat>:<userId>`). Pure. */
export function isSessionOf(sessionKey: string, identity: PersonIdentity): boolean {
  return sessionKey === `${identity.channel}:${identity.userId}` || (sessionKey.startsWith(`${identity.channel}:`) && sessionKey.endsWith(`:${identity.userId}`));
}

const isAuthoredBy = (fact: MemoryFact, identities: readonly PersonIdentity[]) => identities.some((identity) => fact.source.channel === identity.channel && fact.source.authorId === identity.userId);

/** Collects what memory holds about a person (an operator's export). */
export async function collectPersonMemory(sources: PersonMemorySources, identity: PersonIdentity): Promise<PersonMemory> {
  const identities = await sources.identities.identitiesOf(identity);
  const personFacts = await sources.facts.history({ kind: 'person', ...identity });
  const statedElsewhere = (await sources.facts.all()).filter(([key]) => !key.startsWith('person|')).flatMap(([, facts]) => facts.filter((fact) => isAuthoredBy(fact, identities)));
  const summaries = (await sources.sessions.entries()).flatMap(([sessionKey, session]) => {
    const summary = identities.some((each) => isSessionOf(sessionKey, each)) ? summaryTextOf(session.messages[0]) : undefined;
    return summary === undefined ? [] : [{ sessionKey, summary }];
  });
  const ownExchanges = (await sources.exchanges?.list({ kind: 'person', ...identity })) ?? [];
  const groupExchanges = ((await sources.exchanges?.all()) ?? []).filter(([key]) => !key.startsWith('person|')).flatMap(([, exchanges]) => exchanges.filter((exchange) => identities.some((each) => exchange.source.channel === each.channel && exchange.source.authorId === each.userId)));
  return { identities, personFacts, statedElsewhere, summaries, exchanges: [...ownExchanges, ...groupExchanges] };
}

/**
 * Deletes what memory holds about a person: their person scope, the facts they stated in groups and chats (each with
 * its older versions), their archived exchanges (private ones, and their own in groups), the compaction summaries at the head of their sessions, their identity links and their last
 * `/memory` lists. Resolves to
 * what was deleted, for the audit.
 */
export async function deletePersonMemory(
  sources: PersonMemorySources,
  identity: PersonIdentity,
): Promise<{ readonly factIds: readonly string[]; readonly exchangeIds: readonly string[]; readonly summaries: readonly string[]; readonly identities: readonly PersonIdentity[] }> {
  const found = await collectPersonMemory(sources, identity);
  const factIds = [...(await sources.facts.clear({ kind: 'person', ...identity }))];
  const byScope = new Map<string, MemoryFact[]>();
  for (const fact of found.statedElsewhere) byScope.set(factScopeKey(fact.scope), [...(byScope.get(factScopeKey(fact.scope)) ?? []), fact]);
  for (const facts of byScope.values()) {
    const [first] = facts;
    if (first !== undefined) factIds.push(...(await sources.facts.forget(first.scope, facts.map((fact) => fact.id))));
  }
  const exchangeIds: string[] = [];
  const exchangesByScope = new Map<string, MemoryExchange[]>();
  for (const exchange of found.exchanges) exchangesByScope.set(factScopeKey(exchange.scope), [...(exchangesByScope.get(factScopeKey(exchange.scope)) ?? []), exchange]);
  for (const exchanges of exchangesByScope.values()) {
    const [first] = exchanges;
    if (first !== undefined) exchangeIds.push(...((await sources.exchanges?.forget(first.scope, exchanges.map((exchange) => exchange.id))) ?? []));
  }
  for (const { sessionKey } of found.summaries) {
    await sources.sessions.update(sessionKey, (session) => (session === undefined ? undefined : { ...session, messages: session.messages.filter((message, index) => !(index === 0 && isCompactionSummary(message))) }));
  }
  await sources.identities.unlink(found.identities);
  for (const [key] of (await sources.listings?.entries()) ?? []) {
    if (found.identities.some((each) => key.startsWith(`${each.channel}|`) && key.endsWith(`|${each.userId}`))) await sources.listings?.delete(key);
  }
  return { factIds, exchangeIds, summaries: found.summaries.map((entry) => entry.sessionKey), identities: found.identities };
}
