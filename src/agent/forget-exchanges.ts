import type { MessageReceived } from '../events/inbound-event.js';
import type { ExchangeArchive } from '../memory/create-exchange-archive.js';
import type { MemoryExchange } from '../memory/memory-exchange.js';
import type { FactScope, FactSource } from '../memory/memory-fact.js';
import { visibleExchanges } from '../memory/visible-exchanges.js';
import type { AuditEntry } from '../registry/audit-log.js';

/** What forgetting archived exchanges works with. */
export type ForgetExchangesDependencies = { readonly exchanges?: ExchangeArchive; readonly audit: (entry: AuditEntry) => void };

/** Whether an exchange's message or answer contains every word. Pure. */
function matchesWords(exchange: MemoryExchange, words: readonly string[]): boolean {
  const text = `${exchange.question}\n${exchange.answer}`.toLowerCase();
  return words.every((word) => text.includes(word.toLowerCase()));
}

/**
 * `/forget <words>` for archived exchanges: those here (a group's, or the person's in a private chat) whose message or
 * answer contains every word, at once; in a group only the sender's own unless they approve there (`all`: every one of
 * the group's, for `/forget group all`). One `memory-forgotten` audit entry; resolves to how many were removed.
 */
export async function forgetExchanges(deps: ForgetExchangesDependencies, event: MessageReceived, how: { readonly words: readonly string[] | 'all'; readonly isApprover: boolean }): Promise<number> {
  const archive = deps.exchanges;
  if (archive === undefined) return 0;
  const here = await visibleExchanges(archive, { channel: event.channel, chatId: event.chatId, userId: event.sender.id, isGroup: event.isGroup });
  const words = how.words;
  const chosen = here.filter((exchange) => (words === 'all' || matchesWords(exchange, words)) && (!event.isGroup || how.isApprover || exchange.source.authorId === event.sender.id));
  const [first] = chosen;
  if (first === undefined) return 0;
  const deleted = await archive.forget(first.scope, chosen.map((exchange) => exchange.id));
  deps.audit({ kind: 'memory-forgotten', sessionKey: event.sessionKey, userId: event.sender.id, channel: event.channel, arguments: { scope: first.scope, words: words === 'all' ? 'all' : words.join(' '), exchangeIds: deleted }, outcome: `forgotten:${deleted.length}` });
  return deleted.length;
}

/** Whether an exchange is the one a fact was taken from: the same message of the same author in the same chat. Pure. */
const isFromSource = (exchange: MemoryExchange, source: FactSource) =>
  source.messageId !== undefined && exchange.source.messageId === source.messageId && exchange.source.channel === source.channel && exchange.source.chatId === source.chatId && exchange.source.authorId === source.authorId;

/**
 * With forgotten facts (a Forget button, `/forget <number>`, `/forget <words>`): the archived exchanges they were taken
 * from go too (in the group's or the author's scope), so a forgotten fact does not come back as the exchange that stated
 * it. Resolves to how many were removed.
 */
export async function forgetSourceExchanges(deps: ForgetExchangesDependencies, sources: readonly FactSource[]): Promise<number> {
  const archive = deps.exchanges;
  if (archive === undefined || sources.length === 0) return 0;
  let removed = 0;
  const scopes = new Map<string, FactScope>();
  for (const source of sources) {
    scopes.set(`group|${source.channel}|${source.chatId}`, { kind: 'group', channel: source.channel, chatId: source.chatId });
    scopes.set(`person|${source.channel}|${source.authorId}`, { kind: 'person', channel: source.channel, userId: source.authorId });
  }
  for (const scope of scopes.values()) {
    const ids = (await archive.list(scope)).filter((exchange) => sources.some((source) => isFromSource(exchange, source))).map((exchange) => exchange.id);
    if (ids.length > 0) removed += (await archive.forget(scope, ids)).length;
  }
  return removed;
}
