import MiniSearch from 'minisearch';

/** Words for the keyword index: Latin words whole, each CJK character on its own (Chinese has no spaces). Pure. */
export function tokenizeForRecall(text: string): string[] {
  return text.toLowerCase().match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[\p{L}\p{N}]+/gu) ?? [];
}

/** Reciprocal rank fusion constant: ranks from two lists are merged without comparing their raw scores. */
const fusionK = 60;

/**
 * The ids of the documents the keyword index (minisearch, built for this call) or the vector similarities rank for the
 * query, best first, the two rankings merged by reciprocal rank fusion; documents neither ranks are left out.
 */
export function rankForRecall(documents: readonly { readonly id: string; readonly text: string }[], query: string, similar: ReadonlyMap<string, number> = new Map()): readonly string[] {
  const index = new MiniSearch<{ readonly id: string; readonly text: string }>({ fields: ['text'], storeFields: [], tokenize: tokenizeForRecall });
  index.addAll(documents);
  const keywordRanked = index.search(query, { prefix: true, fuzzy: 0.2, combineWith: 'OR' }).map((result) => String(result.id));
  const vectorRanked = [...similar.entries()].filter(([, score]) => score > 0).sort((left, right) => right[1] - left[1]).map(([id]) => id);
  const fused = new Map<string, number>();
  for (const ranked of [keywordRanked, vectorRanked]) for (const [rank, id] of ranked.entries()) fused.set(id, (fused.get(id) ?? 0) + 1 / (fusionK + rank + 1));
  return [...fused.entries()].sort((left, right) => right[1] - left[1]).map(([id]) => id);
}
