import type { ChatMessage } from '../model/chat-message.js';
import type { FactStore } from './create-fact-store.js';
import type { MemoryFact } from './memory-fact.js';
import { rankForRecall } from './rank-for-recall.js';
import { visibleFacts } from './visible-facts.js';

/** Where a turn runs and what it is about: the scopes it may see follow from where, the ranking from the query. */
export type RecallRequest = {
  readonly channel: string;
  readonly chatId: string;
  readonly userId: string;
  readonly isGroup: boolean;
  readonly query: string;
  readonly sessionKey?: string;
  /** This session's history as the turn loaded it: archived exchanges still in it are in the model's context already and are not recalled. */
  readonly history?: readonly ChatMessage[];
};

/** Similarity of a query to facts (vector search), by fact id; facts without a score are left out. */
export type FactSimilarity = (query: string, facts: readonly MemoryFact[]) => Promise<ReadonlyMap<string, number>>;

/**
 * The visible facts most relevant to the query, within `budgetChars` of statements: first those the keyword index
 * (minisearch) or, when given, vector similarity ranks (merged by reciprocal rank fusion), then the rest, newest first.
 * The keyword index is built from the scope's facts for each turn (at most a few hundred short documents).
 */
export async function recallFacts(facts: FactStore, request: RecallRequest, options: { readonly budgetChars: number; readonly similarity?: FactSimilarity }): Promise<readonly MemoryFact[]> {
  const visible = await visibleFacts(facts, request);
  if (visible.length === 0) return [];
  const byId = new Map(visible.map((fact) => [fact.id, fact]));
  const similar = options.similarity === undefined ? new Map<string, number>() : await options.similarity(request.query, visible);
  const ranked = rankForRecall(visible.map((fact) => ({ id: fact.id, text: `${fact.subject} ${fact.statement}` })), request.query, similar);
  const matched = ranked.flatMap((id) => byId.get(id) ?? []);
  const fused = new Set(ranked);
  const rest = [...visible].reverse().filter((fact) => !fused.has(fact.id));
  const chosen: MemoryFact[] = [];
  let used = 0;
  for (const fact of [...matched, ...rest]) {
    if (used + fact.statement.length > options.budgetChars) continue;
    chosen.push(fact);
    used += fact.statement.length;
  }
  return chosen;
}

/** The facts as a section of the system prompt, each with who said it and when; empty when there are none. Pure. */
export function formatRecalledFacts(recalled: readonly MemoryFact[]): string {
  if (recalled.length === 0) return '';
  const lines = recalled.map((fact) => `- ${fact.statement} (said by ${fact.source.authorName}, ${fact.source.at.slice(0, 10)})`);
  return `\n\nWhat people in this chat told you earlier (remembered facts; newer ones replace older ones):\n${lines.join('\n')}`;
}
