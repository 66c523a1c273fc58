import type { BudgetControl } from '../budgets/create-budget-control.js';
import type { UsageAttribution, UsageHold } from '../model/model-port.js';
import type { KeyValueNamespace } from '../store/key-value-namespace.js';
import type { EmbeddingsClient, EmbeddingsResult } from './create-embeddings-client.js';
import { exchangeText, type MemoryExchange } from './memory-exchange.js';
import { factScopeKey, type MemoryFact } from './memory-fact.js';

/** The vectors of one scope's facts (namespace `memory-vectors`, key: `factScopeKey`; its archived exchanges': `exchanges|` and that key), by id, for one embedding model. */
export type ScopeVectors = { readonly model: string; readonly vectors: Readonly<Record<string, readonly number[]>> };

/** Something embedded: its id (unique across facts and exchanges), the `memory-vectors` row it is kept in, and its text. */
export type VectorItem = { readonly id: string; readonly rowKey: string; readonly text: string };

/** Facts' and archived exchanges' vectors: written with them, read at recall. */
export interface FactVectors {
  /** Embeds these facts and keeps their vectors with their scope; resolves to whether the endpoint answered. */
  add(facts: readonly MemoryFact[], attribution: UsageAttribution): Promise<boolean>;
  /** Cosine similarity of the query to each fact that has a vector; empty when the endpoint does not answer. */
  similarities(query: string, facts: readonly MemoryFact[], attribution: UsageAttribution): Promise<ReadonlyMap<string, number>>;
  /** `add` for any items (archived exchanges: `exchangeVectorItem`). */
  addItems(items: readonly VectorItem[], attribution: UsageAttribution): Promise<boolean>;
  /** `similarities` for any items, facts and exchanges together: one embeddings call for the query and those without a vector. */
  itemSimilarities(query: string, items: readonly VectorItem[], attribution: UsageAttribution): Promise<ReadonlyMap<string, number>>;
}

/** What the vectors count and reserve their embeddings calls with. */
export type FactVectorsOptions = {
  /** Each answered embeddings call, with whose it was (origin `memory`), for the usage ledger. */
  readonly onUsage?: (inputTokens: number, attribution: UsageAttribution) => void;
  /** When enforced, each call is reserved against the subject's budgets first (its texts as input, no output) and settled to its usage. */
  readonly budgets?: BudgetControl;
  /** A call a used-up budget refused (recall then ranks by keywords alone). */
  readonly onRefused?: (attribution: UsageAttribution) => void;
};

/** Facts without a vector embedded along with the query at one recall, at most. */
const maxCatchUpPerRecall = 16;

/** A fact as a vector item. Pure. */
export const factVectorItem = (fact: MemoryFact): VectorItem => ({ id: fact.id, rowKey: factScopeKey(fact.scope), text: `${fact.subject}: ${fact.statement}` });

/** The `memory-vectors` row of a scope's archived exchanges. Pure. */
export const exchangeVectorKey = (scopeKey: string) => `exchanges|${scopeKey}`;

/** An archived exchange as a vector item. Pure. */
export const exchangeVectorItem = (exchange: MemoryExchange): VectorItem => ({ id: exchange.id, rowKey: exchangeVectorKey(factScopeKey(exchange.scope)), text: exchangeText(exchange) });

/** Cosine similarity; 0 for vectors of different lengths or of no length. Pure. */
export function cosineSimilarity(left: readonly number[], right: readonly number[]): number {
  if (left.length !== right.length || left.length === 0) return 0;
  let dot = 0;
  let leftSquares = 0;
  let rightSquares = 0;
  for (let index = 0; index < left.length; index += 1) {
    const a = left[index] ?? 0;
    const b = right[index] ?? 0;
    dot += a * b;
    leftSquares += a * a;
    rightSquares += b * b;
  }
  return leftSquares === 0 || rightSquares === 0 ? 0 : dot / Math.sqrt(leftSquares * rightSquares);
}

/** Drops the vectors of facts a scope no longer holds (forgotten, cleared, moved): a forgotten fact leaves no vector behind. */
export async function pruneFactVectors(vectors: KeyValueNamespace<ScopeVectors>, scopeKey: string, keep: ReadonlySet<string>): Promise<void> {
  if ((await vectors.get(scopeKey)) === undefined) return;
  await vectors.update(scopeKey, (current) => {
    if (current === undefined) return undefined;
    const kept = Object.fromEntries(Object.entries(current.vectors).filter(([id]) => keep.has(id)));
    return Object.keys(kept).length === 0 ? undefined : { model: current.model, vectors: kept };
  });
}

/** Creates the vectors over their namespace and an embeddings endpoint (vectors rounded to 5 decimals to keep rows small). */
export function createFactVectors(
  vectors: KeyValueNamespace<ScopeVectors>,
  embeddings: EmbeddingsClient,
  /** Each answered embeddings call, with whose it was (origin `memory`), for the usage ledger (or give it in `options`). */
  onUsage?: (inputTokens: number, attribution: UsageAttribution) => void,
  options: FactVectorsOptions = {},
): FactVectors {
  const countUsage = onUsage ?? options.onUsage;
  async function embed(texts: readonly string[], attribution: UsageAttribution): Promise<EmbeddingsResult> {
    const subject: UsageAttribution = { ...attribution, origin: 'memory' };
    let hold: UsageHold | undefined;
    if (options.budgets?.enforced === true) {
      // Reserved like any side call: the texts as input, no output; a used-up budget refuses it.
      const reserved = await options.budgets.reserve({ messages: [{ role: 'user', content: texts.join('\n') }], tools: [], maxTokens: 0 }, subject, embeddings.model);
      if (!reserved.ok) {
        options.onRefused?.(subject);
        return { ok: false, error: 'a budget is used up' };
      }
      hold = reserved.hold;
    }
    const result = await embeddings.embed(texts);
    if (!result.ok) {
      hold?.release();
      return result;
    }
    // Settled and counted in the same tick, as the model meter does: the ledger then holds what the hold held.
    hold?.settle({ inputTokens: result.inputTokens ?? 0, cachedInputTokens: 0, outputTokens: 0 }, embeddings.model);
    countUsage?.(result.inputTokens ?? 0, subject);
    return result;
  }
  /** Keeps items' vectors in their rows, one update per row. */
  async function store(items: readonly VectorItem[], embedded: readonly (readonly number[])[]): Promise<void> {
    const byRow = new Map<string, Record<string, number[]>>();
    for (const [index, item] of items.entries()) {
      const vector = embedded[index];
      if (vector === undefined) continue;
      byRow.set(item.rowKey, { ...(byRow.get(item.rowKey) ?? {}), [item.id]: vector.map((value) => Math.round(value * 1e5) / 1e5) });
    }
    for (const [key, added] of byRow) {
      // Vectors of another model are not comparable: a change of model starts the row over.
      await vectors.update(key, (current) => ({ model: embeddings.model, vectors: { ...(current?.model === embeddings.model ? current.vectors : {}), ...added } }));
    }
  }
  async function addItems(items: readonly VectorItem[], attribution: UsageAttribution): Promise<boolean> {
    if (items.length === 0) return true;
    const result = await embed(items.map((item) => item.text), attribution);
    if (!result.ok) return false;
    await store(items, result.vectors);
    return true;
  }
  async function itemSimilarities(query: string, items: readonly VectorItem[], attribution: UsageAttribution): Promise<ReadonlyMap<string, number>> {
    const scores = new Map<string, number>();
    if (items.length === 0 || query.trim() === '') return scores;
    const keys = [...new Set(items.map((item) => item.rowKey))];
    const stored = await Promise.all(keys.map(async (key) => vectors.get(key)));
    const known = new Map<string, readonly number[]>();
    for (const row of stored) if (row?.model === embeddings.model) for (const [id, vector] of Object.entries(row.vectors)) known.set(id, vector);
    // Items without a vector (moved by /link, written while the endpoint was down, another model) are embedded with the query, a few per turn.
    const missing = items.filter((item) => !known.has(item.id)).slice(0, maxCatchUpPerRecall);
    const result = await embed([query, ...missing.map((item) => item.text)], attribution);
    if (!result.ok) return scores;
    const [queryVector, ...caughtUp] = result.vectors;
    if (queryVector === undefined) return scores;
    for (const [index, item] of missing.entries()) {
      const vector = caughtUp[index];
      if (vector !== undefined) known.set(item.id, vector);
    }
    if (missing.length > 0) await store(missing, caughtUp);
    for (const item of items) {
      const vector = known.get(item.id);
      if (vector !== undefined) scores.set(item.id, cosineSimilarity(queryVector, vector));
    }
    return scores;
  }
  return {
    add: (facts, attribution) => addItems(facts.map(factVectorItem), attribution),
    similarities: (query, facts, attribution) => itemSimilarities(query, facts.map(factVectorItem), attribution),
    addItems,
    itemSimilarities,
  };
}
