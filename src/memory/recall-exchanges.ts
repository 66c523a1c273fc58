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

/** Whether an archived answer (cut with an ellipsis when it was long) is one still in the history. Pure. */
function isHeld(answer: string, held: ReadonlySet<string>): boolean {
  if (held.has(answer)) return true;
  if (!answer.endsWith('…')) return false;
  const start = answer.slice(0, -1);
  return [...held].some((text) => text.startsWith(start));
}

/** The line an exchange is shown as in the system prompt. Pure. */
function lineOf(exchange: MemoryExchange): string {
  return `- ${exchange.source.at.slice(0, 16).replace('T', ' ')} ${exchange.source.authorName}: ${exchange.question}\n  You answered: ${exchange.answer}`;
}

/**
 * The visible past exchanges most relevant to the query (keyword index and, when given, vector similarity, merged as for
 * facts), only those that match, at most `maxExchanges` and `budgetChars`; exchanges still in this session's history
 * are left out. Older exchanges than the budget allows are skipped, never cut.
 */
export async function recallExchanges(archive: ExchangeArchive, request: RecallRequest, options: ExchangeRecallOptions): Promise<readonly MemoryExchange[]> {
  if (options.budgetChars <= 0 || options.maxExchanges <= 0 || request.query.trim() === '') return [];
  const held = request.heldAnswers ?? new Set<string>();
  const visible = (await visibleExchanges(archive, request)).filter((exchange) => !(exchange.sessionKey === request.sessionKey && isHeld(exchange.answer, held)));
  if (visible.length === 0) return [];
  const byId = new Map(visible.map((exchange) => [exchange.id, exchange]));
  const similar = options.similarity === undefined ? new Map<string, number>() : await options.similarity(request.query, visible);
  const ranked = rankForRecall(visible.map((exchange) => ({ id: exchange.id, text: exchangeText(exchange) })), request.query, similar);
  const chosen: MemoryExchange[] = [];
  let used = 0;
  for (const exchange of ranked.flatMap((id) => byId.get(id) ?? [])) {
    if (chosen.length >= options.maxExchanges) break;
    const size = lineOf(exchange).length;
    if (used + size > options.budgetChars) continue;
    chosen.push(exchange);
    used += size;
  }
  return chosen;
}

/** The exchanges as a section of the system prompt (after the facts), oldest first; empty when there are none. Pure. */
export function formatRecalledExchanges(recalled: readonly MemoryExchange[]): string {
  if (recalled.length === 0) return '';
  const ordered = [...recalled].sort((left, right) => left.source.at.localeCompare(right.source.at));
  return `\n\nEarlier exchanges in this chat that may matter now (what was said then; it may be out of date):\n${ordered.map(lineOf).join('\n')}`;
}
