import type { ChatMessage } from '../model/chat-message.js';
import type { ExchangeArchive } from './create-exchange-archive.js';
import { exchangeText, type MemoryExchange } from './memory-exchange.js';
import type { RecallRequest } from './recall-facts.js';
import { rankForRecall } from './rank-for-recall.js';
import { visibleExchanges } from './visible-exchanges.js';

/** Similarity of a query to exchanges (vector search), by exchange id; exchanges without a score are left out. */
export type ExchangeSimilarity = (query: string, exchanges: readonly MemoryExchange[]) => Promise<ReadonlyMap<string, number>>;

/** What exchange recall is limited by. */
export type ExchangeRecallOptions = {
  /** Characters of rendered exchanges at most (`memory.retrieval.exchangeShare` of the retrieval budget). */
  readonly budgetChars: number;
  /** Exchanges at most (`memory.retrieval.maxExchanges`). */
  readonly maxExchanges: number;
  readonly similarity?: ExchangeSimilarity;
};

/** Without the ellipsis an over-long side was cut with. Pure. */
const uncut = (text: string) => (text.endsWith('…') ? text.slice(0, -1) : text);

/**
 * Whether an archived exchange is still in the history: an answer there begins with its (possibly cut) answer and a
 * person's message there contains its (possibly cut) words. Both, so a short answer said again ("Noted.") does not hide
 * an older exchange. Pure.
 */
function heldIn(history: readonly ChatMessage[]): (exchange: MemoryExchange) => boolean {
  const answers = history.flatMap((message) => (message.role === 'assistant' && message.content !== '' ? [message.content] : []));
  const messages = history.flatMap((message) => (message.role === 'user' ? [message.content] : []));
  return (exchange) => answers.some((text) => text.startsWith(uncut(exchange.answer))) && messages.some((text) => text.includes(uncut(exchange.question)));
}

/** The line an exchange is shown as in the system prompt. Pure. */
function lineOf(exchange: MemoryExchange): string {
  return `- ${exchange.source.at.slice(0, 16).replace('T', ' ')} ${exchange.source.authorName}: ${exchange.question}\n  You answered: ${exchange.answer}`;
}

/**
 * The visible past exchanges most relevant to the query (keyword index and, when given, vector similarity, merged as for
 * facts), only those that match, at most `maxExchanges` and `budgetChars`; exchanges still in this session's history
 * are left out. An answer too long for what is left of the budget is cut (a person's message never is).
 */
export async function recallExchanges(archive: ExchangeArchive, request: RecallRequest, options: ExchangeRecallOptions): Promise<readonly MemoryExchange[]> {
  if (options.budgetChars <= 0 || options.maxExchanges <= 0 || request.query.trim() === '') return [];
  const visible = await visibleExchanges(archive, request);
  if (visible.length === 0) return [];
  const byId = new Map(visible.map((exchange) => [exchange.id, exchange]));
  const similar = options.similarity === undefined ? new Map<string, number>() : await options.similarity(request.query, visible);
  const ranked = rankForRecall(visible.map((exchange) => ({ id: exchange.id, text: exchangeText(exchange) })), request.query, similar);
  const chosen: MemoryExchange[] = [];
  let used = 0;
  // Checked only for the ranked ones: the history is searched for a few exchanges, not the whole archive.
  const isHeld = heldIn(request.history ?? []);
  for (const exchange of ranked.flatMap((id) => byId.get(id) ?? [])) {
    if (chosen.length >= options.maxExchanges) break;
    if (exchange.sessionKey === request.sessionKey && isHeld(exchange)) continue;
    const fitted = fitToBudget(exchange, options.budgetChars - used);
    if (fitted === undefined) continue;
    chosen.push(fitted);
    used += lineOf(fitted).length;
  }
  return chosen;
}

/** Shortest answer worth showing when a long one is cut to fit the budget. */
const minAnswerChars = 80;

/** The exchange as it fits in `room` characters: whole, with its answer cut (never its message), or not at all. Pure. */
function fitToBudget(exchange: MemoryExchange, room: number): MemoryExchange | undefined {
  const size = lineOf(exchange).length;
  if (size <= room) return exchange;
  const answerRoom = exchange.answer.length - (size - room) - 1;
  return answerRoom < minAnswerChars ? undefined : { ...exchange, answer: `${exchange.answer.slice(0, answerRoom)}…` };
}

/** The exchanges as a section of the system prompt (after the facts), oldest first; empty when there are none. Pure. */
export function formatRecalledExchanges(recalled: readonly MemoryExchange[]): string {
  if (recalled.length === 0) return '';
  const ordered = [...recalled].sort((left, right) => left.source.at.localeCompare(right.source.at));
  return `\n\nEarlier exchanges in this chat that may matter now (what was said then; it may be out of date):\n${ordered.map(lineOf).join('\n')}`;
}
