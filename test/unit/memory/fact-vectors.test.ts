import { describe, expect, it } from 'vitest';
import type { EmbeddingsClient } from '../../../src/memory/create-embeddings-client.js';
import { cosineSimilarity, createFactVectors, pruneFactVectors, type ScopeVectors } from '../../../src/memory/create-fact-vectors.js';
import type { MemoryFact } from '../../../src/memory/memory-fact.js';
import { deterministicEmbedding } from '../../fakes/scripted-model-server.js';
import { useScratchStores } from '../../fakes/use-scratch-stores.js';

const attribution = { origin: 'user' as const, sessionKey: 'telegram:42', userId: '42', channel: 'telegram', chatId: '42' };

const fact = (id: string, subject: string, statement: string): MemoryFact => ({
  id,
  scope: { kind: 'person', channel: 'telegram', userId: '42' },
  subject,
  statement,
  source: { authorId: '42', authorName: 'Alice', channel: 'telegram', chatId: '42', at: '2026-12-02T08:00:00.000Z' },
  trust: 'allowed-user',
});

describe('fact vectors over a real SQLite store', () => {
  const openStore = useScratchStores('vectors');

  async function open(answering: { up: boolean }) {
    const store = await openStore();
    const calls: string[][] = [];
    const embeddings: EmbeddingsClient = {
      model: 'm1',
      async embed(texts) {
        calls.push([...texts]);
        return answering.up ? { ok: true, vectors: texts.map(deterministicEmbedding), inputTokens: texts.length * 5 } : { ok: false, error: 'down' };
      },
    };
    const rows = store.namespace<ScopeVectors>('memory-vectors');
    const usage: { inputTokens: number; origin: string }[] = [];
    return { vectors: createFactVectors(rows, embeddings, (inputTokens, counted) => usage.push({ inputTokens, origin: counted.origin })), rows, calls, usage };
  }

  it('embeds on write (counted as origin memory), catches up facts without a vector at recall (a few, with the query), and keeps nothing of pruned facts', async () => {
    const answering = { up: true };
    const { vectors, rows, calls, usage } = await open(answering);
    const dog = fact('f1', 'dog', 'Their dog is Biscuit.');
    const city = fact('f2', 'home city', 'Their home city is Paris.');
    expect(await vectors.add([dog], attribution)).toBe(true);
    const scores = await vectors.similarities('dog name', [dog, city], attribution);
    expect(calls).toEqual([['dog: Their dog is Biscuit.'], ['dog name', 'home city: Their home city is Paris.']]);
    expect(scores.get('f1')).toBeGreaterThan(scores.get('f2') ?? 1);
    await vectors.similarities('city', [dog, city], attribution);
    expect(calls.at(-1)).toEqual(['city']);
    await pruneFactVectors(rows, 'person|telegram|42', new Set(['f2']));
    expect(Object.keys((await rows.get('person|telegram|42'))?.vectors ?? {})).toEqual(['f2']);
    answering.up = false;
    expect(await vectors.add([dog], attribution)).toBe(false);
    expect((await vectors.similarities('dog', [dog, city], attribution)).size).toBe(0);
    // Every answered call was counted, as origin memory; the failed ones were not.
    expect(usage).toEqual([
      { inputTokens: 5, origin: 'memory' },
      { inputTokens: 10, origin: 'memory' },
      { inputTokens: 5, origin: 'memory' },
    ]);
  });

  it('cosine similarity: 1 for the same direction, 0 for orthogonal or mismatched vectors', () => {
    expect(cosineSimilarity([1, 2], [2, 4])).toBeCloseTo(1);
    expect(cosineSimilarity([1, 0], [0, 1])).toBe(0);
    expect(cosineSimilarity([1, 0], [1, 0, 0])).toBe(0);
  });
});
