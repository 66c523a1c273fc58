import type { UsageAttribution } from '../model/model-port.js';
import type { KeyValueNamespace } from '../store/key-value-namespace.js';
import type { EmbeddingsClient } from './create-embeddings-client.js';
import { factScopeKey, type MemoryFact } from './memory-fact.js';

/** The vectors of one scope's facts (namespace `memory-vectors`, key: `factScopeKey`), by fact id, for one embedding model. */
export type ScopeVectors = { readonly model: string; readonly vectors: Readonly<Record<string, readonly number[]>> };

/** Facts' vectors: written with the facts, read at recall. */
export interface FactVectors {
  /** Embeds these facts and keeps their vectors with their scope; resolves to whether the endpoint answered. */
  add(facts: readonly MemoryFact[], attribution: UsageAttribution): Promise<boolean>;
  /** Cosine similarity of the query to each fact that has a vector; empty when the endpoint does not answer. */
  similarities(query: string, facts: readonly MemoryFact[], attribution: UsageAttribution): Promise<ReadonlyMap<string, number>>;
}

/** Facts without a vector embedded along with the query at one recall, at most. */
const maxCatchUpPerRecall = 16;

/** The text a fact is embedded as. Pure. */
const textOf = (fact: MemoryFact) => `${fact.subject}: ${fact.statement}`;

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

/** Creates the fact vectors over their namespace and an embeddings endpoint (vectors rounded to 5 decimals to keep rows small). */
export function createFactVectors(
  vectors: KeyValueNamespace<ScopeVectors>,
  embeddings: EmbeddingsClient,
  /** Each answered embeddings call, with whose it was (origin `memory`), for the usage ledger. */
  onUsage?: (inputTokens: number, attribution: UsageAttribution) => void,
): FactVectors {
  async function embed(texts: readonly string[], attribution: UsageAttribution) {
    const result = await embeddings.embed(texts);
    if (result.ok) onUsage?.(result.inputTokens ?? 0, { ...attribution, origin: 'memory' });
    return result;
  }
  /** Keeps facts' vectors with their scopes, one update per scope. */
  async function store(facts: readonly MemoryFact[], embedded: readonly (readonly number[])[]): Promise<void> {
    const byScope = new Map<string, Record<string, number[]>>();
    for (const [index, fact] of facts.entries()) {
      const vector = embedded[index];
      if (vector === undefined) continue;
      const key = factScopeKey(fact.scope);
      byScope.set(key, { ...(byScope.get(key) ?? {}), [fact.id]: vector.map((value) => Math.round(value * 1e5) / 1e5) });
    }
    for (const [key, added] of byScope) {
      // Vectors of another model are not comparable: a change of model starts the scope over.
      await vectors.update(key, (current) => ({ model: embeddings.model, vectors: { ...(current?.model === embeddings.model ? current.vectors : {}), ...added } }));
    }
  }
  return {
    async add(facts, attribution) {
      const result = await embed(facts.map(textOf), attribution);
      if (!result.ok) return false;
      await store(facts, result.vectors);
      return true;
    },
    async similarities(query, facts, attribution) {
      const scores = new Map<string, number>();
      if (facts.length === 0 || query.trim() === '') return scores;
      const keys = [...new Set(facts.map((fact) => factScopeKey(fact.scope)))];
      const stored = await Promise.all(keys.map(async (key) => vectors.get(key)));
      const known = new Map<string, readonly number[]>();
      for (const scope of stored) if (scope?.model === embeddings.model) for (const [id, vector] of Object.entries(scope.vectors)) known.set(id, vector);
      // Facts without a vector (moved by /link, written while the endpoint was down, another model) are embedded with the query, a few per turn.
      const missing = facts.filter((fact) => !known.has(fact.id)).slice(0, maxCatchUpPerRecall);
      const result = await embed([query, ...missing.map(textOf)], attribution);
      if (!result.ok) return scores;
      const [queryVector, ...caughtUp] = result.vectors;
      if (queryVector === undefined) return scores;
      for (const [index, fact] of missing.entries()) {
        const vector = caughtUp[index];
        if (vector !== undefined) known.set(fact.id, vector);
      }
      if (missing.length > 0) await store(missing, caughtUp);
      for (const fact of facts) {
        const vector = known.get(fact.id);
        if (vector !== undefined) scores.set(fact.id, cosineSimilarity(queryVector, vector));
      }
      return scores;
    },
  };
}
