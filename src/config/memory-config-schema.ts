import { z } from 'zod';
import { flexibleBoolean, optionalText } from './comma-list.js';

/**
 * The `memory` section. Off by default: a turn then costs exactly what it did before (no summary call, no extra
 * store reads), and the history keeps dropping its oldest exchanges at `agent.historyBudgetChars`.
 */
export const memorySchema = z
  .strictObject({
    enabled: flexibleBoolean
      .default(false)
      .describe('Compact the history with model-written summaries instead of dropping its oldest exchanges. Off by default: it costs a model call each time a session passes its history budget.'),
    compaction: z
      .strictObject({
        keepFraction: z.coerce.number().min(0.1).max(0.9).default(0.5).describe('Share of agent.historyBudgetChars left after a compaction (the newest exchanges); the oldest rest is summarised.'),
        summaryMaxTokens: z.coerce.number().int().min(64).max(8192).default(800).describe('Output tokens of the summary call (origin compaction in the usage counters and budgets).'),
        ceilingFactor: z.coerce
          .number()
          .min(1)
          .max(20)
          .default(4)
          .describe('While summaries cannot be written (model down, budget used up), the history grows up to this many times agent.historyBudgetChars before its oldest exchanges are dropped.'),
      })
      .prefault({}),
    retrieval: z
      .strictObject({
        budgetChars: z.coerce
          .number()
          .int()
          .min(0)
          .max(50_000)
          .default(2000)
          .describe('Characters of remembered facts and past exchanges put into the system prompt before each model call (the most relevant first; 0: none).'),
        exchangeShare: z.coerce
          .number()
          .min(0)
          .max(1)
          .default(0.4)
          .describe('Share of retrieval.budgetChars for past exchanges (after the facts); the facts get the rest. 0: no exchanges are recalled.'),
        maxExchanges: z.coerce.number().int().min(0).max(20).default(3).describe('Past exchanges put into the system prompt at most (only those the keyword or vector ranking matches).'),
      })
      .prefault({}),
    exchanges: z
      .strictObject({
        keepPerScope: z.coerce
          .number()
          .int()
          .min(0)
          .max(10_000)
          .default(200)
          .describe("Past exchanges (a person's own message and the final answer) archived per group and per person for recall; past it the oldest go. 0: none are archived."),
        maxChars: z.coerce.number().int().min(50).max(10_000).default(600).describe('Characters kept of each side of an archived exchange (the rest is cut).'),
      })
      .prefault({}),
    embeddings: z
      .strictObject({
        model: optionalText.describe('Embedding model (e.g. text-embedding-3-small): with it, facts are embedded when written and the message at recall, and vector similarity is merged with the keyword ranking. Empty: keyword search only, no embedding calls.'),
        baseUrl: optionalText.pipe(z.url().optional()).describe('OpenAI-compatible endpoint serving POST /embeddings; empty: the primary model endpoint (model.primary.baseUrl).'),
        apiKey: optionalText.describe('API key of the embeddings endpoint (put an environment variable here with the YAML placeholder syntax); empty with an empty baseUrl: the primary model\'s key.'),
        timeoutMs: z.coerce.number().int().min(100).max(60_000).default(5000).describe('Longest wait for one embeddings call; past it recall goes on with keywords alone.'),
      })
      .prefault({}),
  })
  .prefault({})
  .describe('Memory: compaction of long conversations into a summary kept at the head of the history (see README, "What it remembers, and how to make it forget").');

/** The memory section. */
export type MemoryConfig = z.output<typeof memorySchema>;
