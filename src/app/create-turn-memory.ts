import type { TurnMemory } from '../agent/runtime-dependencies.js';
import type { SessionHistory } from '../agent/session-history.js';
import type { FactListing } from '../agent/memory-commands.js';
import type { BudgetControl } from '../budgets/create-budget-control.js';
import type { MeteredCall } from '../budgets/create-metered-model.js';
import type { Config } from '../config/config-schema.js';
import type { Logger } from '../logging/create-logger.js';
import type { CompactionCursor } from '../memory/compaction-cursor.js';
import { createEmbeddingsClient } from '../memory/create-embeddings-client.js';
import { createFactExtractor } from '../memory/create-fact-extractor.js';
import { createFactStore, type FactList } from '../memory/create-fact-store.js';
import { createExchangeArchive, type ExchangeList } from '../memory/create-exchange-archive.js';
import { createFactVectors, exchangeVectorItem, exchangeVectorKey, type FactVectors, factVectorItem, pruneFactVectors, type ScopeVectors } from '../memory/create-fact-vectors.js';
import { createHistoryCompactor } from '../memory/create-history-compactor.js';
import { createIdentityLinks, type IdentityLink } from '../memory/create-identity-links.js';
import { createLinkCodes, type StoredLinkCode } from '../memory/create-link-codes.js';
import type { MemoryFact } from '../memory/memory-fact.js';
import { formatRecalledExchanges, recallExchanges } from '../memory/recall-exchanges.js';
import { visibleExchanges } from '../memory/visible-exchanges.js';
import { formatRecalledFacts, type RecallRequest, recallFacts } from '../memory/recall-facts.js';
import { visibleFacts } from '../memory/visible-facts.js';
import type { ModelPort } from '../model/model-port.js';
import type { AuditEntry } from '../registry/audit-log.js';
import type { KeyValueNamespace, Store } from '../store/key-value-namespace.js';

/** What the memory of turns is built from: the wiring's input, and the history it compacts. */
export type TurnMemoryInput = {
  readonly config: Config;
  readonly store: Store;
  readonly model: ModelPort;
  readonly budgets?: BudgetControl;
  readonly logger: Logger;
  readonly now: () => Date;
  readonly audit: (entry: AuditEntry) => void;
  readonly recordUsage?: (call: MeteredCall) => void;
  readonly history: SessionHistory;
};

/** With `memory.enabled`: facts, their vectors, identity links, the compactor and recall (loaded only then). */
export function createTurnMemory(input: TurnMemoryInput): TurnMemory {
  const { config, store, history } = input;
  const idleTtlMs = config.storage.sessionIdleDays * 24 * 60 * 60_000;
  const budgetChars = config.agent.historyBudgetChars;
  const memory = config.memory;
  const identities = createIdentityLinks(store.namespace<IdentityLink>('memory-identities'), { now: input.now });
  const vectorRows = store.namespace<ScopeVectors>('memory-vectors');
  const vectors = factVectorsFor(input, vectorRows);
  const onChange = async (scopeKey: string, kept: readonly MemoryFact[]) => {
    if (vectors !== undefined) await pruneFactVectors(vectorRows, scopeKey, new Set(kept.map((fact) => fact.id))).catch((error: unknown) => input.logger.warn({ error }, 'vectors of changed facts not pruned'));
  };
  const facts = createFactStore(store.namespace<FactList>('memory-facts'), { now: input.now, resolveScope: (scope) => identities.resolve(scope), onChange });
  const exchanges = createExchangeArchive(store.namespace<ExchangeList>('memory-exchanges'), {
    keepPerScope: memory.exchanges.keepPerScope,
    maxChars: memory.exchanges.maxChars,
    resolveScope: (scope) => identities.resolve(scope),
    onChange: async (scopeKey, kept) => {
      if (vectors !== undefined) await pruneFactVectors(vectorRows, exchangeVectorKey(scopeKey), new Set(kept.map((exchange) => exchange.id))).catch((error: unknown) => input.logger.warn({ error }, 'vectors of changed exchanges not pruned'));
    },
  });
  // A person's own words and the final answer, archived after each answered message; embedded when written (a failure leaves it to keywords).
  const archiveExchange: TurnMemory['archiveExchange'] = async (exchange, attribution) => {
    if (memory.exchanges.keepPerScope === 0) return;
    const archived = await exchanges.record(exchange);
    if (vectors !== undefined && !(await vectors.addItems([exchangeVectorItem(archived)], attribution))) input.logger.warn({ sessionKey: exchange.sessionKey }, 'exchange not embedded; keyword search only for it');
  };
  const linkCodes = createLinkCodes(store.namespace<StoredLinkCode>('memory-link-codes'), { now: input.now });
  const extractor = createFactExtractor({ model: input.model, facts, ...(input.budgets === undefined ? {} : { budgets: input.budgets }), logger: input.logger });
  // Facts are embedded when written; a failed embedding leaves the fact to keyword search.
  const extractFacts: typeof extractor = async (authored, attribution) => {
    const extraction = await extractor(authored, attribution);
    if (extraction.kind === 'recorded' && extraction.facts.length > 0 && vectors !== undefined && !(await vectors.add(extraction.facts, attribution))) input.logger.warn({ sessionKey: attribution.sessionKey }, 'facts not embedded (the embeddings endpoint did not answer); keyword search only for them');
    return extraction;
  };
  // Facts come from each message's own words when its turn ends, before compaction runs; the span itself is not read
  // for facts, since in it a person's words can no longer be told apart from quoted text, files and hook payloads.
  const compactor = createHistoryCompactor({
    history,
    cursors: store.namespace<CompactionCursor>('compaction-cursors'),
    model: input.model,
    budgetChars,
    keepChars: Math.floor(budgetChars * memory.compaction.keepFraction),
    summaryMaxTokens: memory.compaction.summaryMaxTokens,
    ...(input.budgets === undefined ? {} : { budgets: input.budgets }),
    cursorTtlMs: idleTtlMs,
    logger: input.logger,
    now: input.now,
  });
  const exchangeBudget = Math.floor(memory.retrieval.budgetChars * memory.retrieval.exchangeShare);
  const recall = async (request: RecallRequest) => {
    const attribution = { origin: 'memory' as const, sessionKey: request.sessionKey ?? `${request.channel}:${request.chatId}`, userId: request.userId, channel: request.channel, chatId: request.chatId };
    // One embeddings call for the message and what has no vector yet, facts and exchanges together.
    const items = vectors === undefined ? [] : [...(await visibleFacts(facts, request)).map(factVectorItem), ...(await visibleExchanges(exchanges, request)).map(exchangeVectorItem)];
    const similar = vectors === undefined || items.length === 0 ? undefined : await vectors.itemSimilarities(request.query, items, attribution);
    const similarity = similar === undefined ? {} : { similarity: async () => similar };
    // Exchanges take at most their share of the budget; the facts get the rest (all of it when no exchange matches).
    const recalledExchanges = formatRecalledExchanges(await recallExchanges(exchanges, request, { budgetChars: exchangeBudget, maxExchanges: memory.retrieval.maxExchanges, ...similarity }));
    const recalledFacts = await recallFacts(facts, request, { budgetChars: Math.max(0, memory.retrieval.budgetChars - recalledExchanges.length), ...similarity });
    return formatRecalledFacts(recalledFacts) + recalledExchanges;
  };
  const listings = store.namespace<FactListing>('memory-listings');
  return { extractFacts, archiveExchange, compactor, recall, facts, exchanges, audit: input.audit, listings, identities, linkCodes };
}

/** Vector similarity when `memory.embeddings.model` is set: its endpoint, else the primary model's (an OpenAI-compatible one); none otherwise. */
function factVectorsFor(input: TurnMemoryInput, rows: KeyValueNamespace<ScopeVectors>): FactVectors | undefined {
  const { config, logger, recordUsage } = input;
  const settings = config.memory.embeddings;
  if (settings.model === undefined) return undefined;
  const primary = config.model.primary;
  const ownEndpoint = settings.baseUrl !== undefined;
  const baseUrl = settings.baseUrl ?? (primary.provider === 'openai' ? (primary.baseUrl ?? 'https://api.openai.com/v1') : undefined);
  if (baseUrl === undefined) {
    logger.warn('memory.embeddings.model is set but there is no OpenAI-compatible endpoint for it (set memory.embeddings.baseUrl): keyword search only');
    return undefined;
  }
  const apiKey = ownEndpoint ? settings.apiKey : (settings.apiKey ?? primary.apiKey);
  const client = createEmbeddingsClient({ baseUrl, model: settings.model, timeoutMs: settings.timeoutMs, ...(apiKey === undefined ? {} : { apiKey }) });
  // Reserved against budgets like the other side calls, then counted in the usage ledger as origin memory (tokens in, none out).
  return createFactVectors(rows, client, (inputTokens, attribution) => recordUsage?.({ attribution, model: client.model, usage: { inputTokens, cachedInputTokens: 0, outputTokens: 0 } }), {
    ...(input.budgets === undefined ? {} : { budgets: input.budgets }),
    onRefused: (attribution) => logger.info({ sessionKey: attribution.sessionKey }, 'embeddings call refused: a budget is used up; recall ranks by keywords alone'),
  });
}
