import { createSessionHistory, type SessionHistory, type SessionRecord } from '../agent/session-history.js';
import type { TurnMemory } from '../agent/runtime-dependencies.js';
import type { TurnMemoryInput } from './create-turn-memory.js';
import { fenceHistory } from './fence-history.js';

/** The session history and, with `memory.enabled`, the compactor that keeps it within its budget by summaries. */
export type MemoryWiring = {
  readonly history: SessionHistory;
  readonly memory?: TurnMemory;
};

/**
 * Builds the history: with memory off it drops its oldest exchanges at `agent.historyBudgetChars` (as always); with
 * memory on it is compacted past that budget and drops only past `memory.compaction.ceilingFactor` times it.
 */
export async function wireMemory(input: Omit<TurnMemoryInput, 'history'>): Promise<MemoryWiring> {
  const { config, store } = input;
  const idleTtlMs = config.storage.sessionIdleDays * 24 * 60 * 60_000;
  const budgetChars = config.agent.historyBudgetChars;
  const memory = config.memory;
  const ceiling = memory.enabled ? Math.floor(budgetChars * memory.compaction.ceilingFactor) : budgetChars;
  const history = fenceHistory(createSessionHistory(store.namespace<SessionRecord>('sessions'), { budgetChars: ceiling, idleTtlMs }));
  if (!memory.enabled) return { history };
  // Loaded only with memory on: an agent without it does not pay for facts, vectors, the compactor or the keyword index.
  const { createTurnMemory } = await import('./create-turn-memory.js');
  return { history, memory: createTurnMemory({ ...input, history }) };
}
