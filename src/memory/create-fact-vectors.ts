import type { KeyValueNamespace } from '../store/key-value-namespace.js';
import type { EmbeddingsClient } from './create-embeddings-client.js';
import { factScopeKey, type MemoryFact } from './memory-fact.js';

/** The vectors of one scope's facts (namespace `memory-vectors`, key: `factScopeKey`), by fact id, for one embedding model. */
export type ScopeVectors = { readonly model: string; readonly vectors: Readonly<Record<string, readonly number[]>> };

/** Facts' vectors: written with the facts, read at recall. */
export interface FactVectors {
  /** Embeds these facts and keeps their vectors with their scope; resolves to whether the endpoint answered. */
  add(facts: readonly MemoryFact[]): Promise<boolean>;
  /** Cosine similarity of the query to each fact that has a vector; empty when the endpoint does not answer. */
  similarities(query: string, facts: readonly MemoryFact[]): Promise<ReadonlyMap<string, number>>;
}

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
export function createFactVectors(vectors: KeyValueNamespace<ScopeVectors>, embeddings: EmbeddingsClient): FactVectors {
  return {
    async add(facts) {
      const result = await embeddings.embed(facts.map(textOf));
      if (!result.ok) return false;
      const byScope = new Map<string, Record<string, number[]>>();
      for (const [index, fact] of facts.entries()) {
        const vector = result.vectors[index];
        if (vector === undefined) continue;
        const key = factScopeKey(fact.scope);
        byScope.set(key, { ...(byScope.get(key) ?? {}), [fact.id]: vector.map((value) => Math.round(value * 1e5) / 1e5) });
      }
      for (const [key, added] of byScope) {
        // Vectors of another model are not comparable: a change of model starts the scope over.
        await vectors.update(key, (current) => ({ model: embeddings.model, vectors: { ...(current?.model === embeddings.model ? current.vectors : {}), ...added } }));
      }
      return true;
    },
    async similarities(query, facts) {
      const scores = new Map<string, number>();
      if (facts.length === 0 || query.trim() === '') return scores;
      const result = await embeddings.embed([query]);
      const [queryVector] = result.ok ? result.vectors : [];
      if (queryVector === undefined) return scores;
      const keys = [...new Set(facts.map((fact) => factScopeKey(fact.scope)))];
      const stored = await Promise.all(keys.map(async (key) => vectors.get(key)));
      const known = new Map<string, readonly number[]>();
      for (const scope of stored) if (scope?.model === embeddings.model) for (const [id, vector] of Object.entries(scope.vectors)) known.set(id, vector);
      for (const fact of facts) {
        const vector = known.get(fact.id);
        if (vector !== undefined) scores.set(fact.id, cosineSimilarity(queryVector, vector));
      }
      return scores;
    },
  };
}
