// The exchange archive and its recall over a real SQLite store: exchanges are kept per scope (group / person) with a cap,
// recalled only where they may be seen and only when they match, left out while still in the session's history; and the
// embeddings calls of recall go through budget control: a used-up budget refuses them, and recall ranks by keywords alone.
import { describe, expect, it } from 'vitest';
import type { BudgetState } from '../../../src/budgets/budget-check.js';
import { createBudgetControl } from '../../../src/budgets/create-budget-control.js';
import { createMemoryBudgetHolds } from '../../../src/budgets/create-memory-budget-holds.js';
import { createUsageLedger } from '../../../src/budgets/create-usage-ledger.js';
import { createPeriodClock } from '../../../src/budgets/usage-period.js';
import type { UsageTotals } from '../../../src/budgets/usage-totals.js';
import { budgetsSchema } from '../../../src/config/config-schema.js';
import type { ChatMessage } from '../../../src/model/chat-message.js';
import type { EmbeddingsClient } from '../../../src/memory/create-embeddings-client.js';
import { createExchangeArchive, type ExchangeList, type NewExchange } from '../../../src/memory/create-exchange-archive.js';
import { createFactVectors, exchangeVectorItem, type ScopeVectors } from '../../../src/memory/create-fact-vectors.js';
import { formatRecalledExchanges, recallExchanges } from '../../../src/memory/recall-exchanges.js';
import { visibleExchanges } from '../../../src/memory/visible-exchanges.js';
import { deterministicEmbedding } from '../../fakes/scripted-model-server.js';
import { useScratchStores } from '../../fakes/use-scratch-stores.js';

const at = '2026-12-02T08:00:00.000Z';
const privately = (question: string, answer: string, userId = '42'): NewExchange => ({ sessionKey: `telegram:${userId}`, isGroup: false, question, answer, source: { authorId: userId, authorName: 'Alice', channel: 'telegram', chatId: userId, at } });
const inGroup = (question: string, answer: string, userId = '42'): NewExchange => ({ sessionKey: 'telegram:-100', isGroup: true, question, answer, source: { authorId: userId, authorName: 'Bob', channel: 'telegram', chatId: '-100', at } });
const privateTurn = (query: string, extra: { history?: readonly ChatMessage[] } = {}) => ({ channel: 'telegram', chatId: '42', userId: '42', isGroup: false, query, sessionKey: 'telegram:42', ...extra });
const groupTurn = (query: string) => ({ channel: 'telegram', chatId: '-100', userId: '42', isGroup: true, query, sessionKey: 'telegram:-100' });
const limits = { budgetChars: 2000, maxExchanges: 3 };

describe('the exchange archive and its recall', () => {
  const openStore = useScratchStores('exchanges');

  async function open() {
    const store = await openStore();
    return store;
  }

  it('keeps each scope apart: a group\'s exchanges only in that group, a private chat\'s only in that person\'s private chats; capped, oldest first out', async () => {
    const store = await open();
    const archive = createExchangeArchive(store.namespace<ExchangeList>('memory-exchanges'), { keepPerScope: 2, maxChars: 40 });
    await archive.record(privately('the door code is 4711', 'Noted: 4711.'));
    await archive.record(inGroup('the launch is on Friday', 'Friday it is.'));
    expect((await recallExchanges(archive, privateTurn('door code?'), limits)).map((exchange) => exchange.question)).toEqual(['the door code is 4711']);
    expect(await recallExchanges(archive, privateTurn('launch Friday?'), limits)).toEqual([]);
    expect((await recallExchanges(archive, groupTurn('launch day?'), limits)).map((exchange) => exchange.question)).toEqual(['the launch is on Friday']);
    expect(await recallExchanges(archive, groupTurn('door code 4711?'), limits)).toEqual([]);
    // Another person's private exchanges are not this person's either.
    expect(await recallExchanges(archive, { ...privateTurn('door code?'), userId: '43', chatId: '43', sessionKey: 'telegram:43' }, limits)).toEqual([]);

    // Only matching exchanges are recalled; those still in this session's history are not; each side is cut to maxChars.
    await archive.record(privately('x'.repeat(100), 'a long answer'));
    const kept = await visibleExchanges(archive, privateTurn(''));
    expect(kept.map((exchange) => exchange.question.length)).toEqual([21, 40]);
    expect(await recallExchanges(archive, privateTurn('weather?'), limits)).toEqual([]);
    const stillThere: ChatMessage[] = [{ role: 'user', content: 'the door code is 4711' }, { role: 'assistant', content: 'Noted: 4711.' }];
    expect(await recallExchanges(archive, privateTurn('door code?', { history: stillThere }), limits)).toEqual([]);
    // The same answer given to another message does not hide it.
    const sameAnswerElsewhere: ChatMessage[] = [{ role: 'user', content: 'the gate code is 4711 too' }, { role: 'assistant', content: 'Noted: 4711.' }];
    expect(await recallExchanges(archive, privateTurn('door code?', { history: sameAnswerElsewhere }), limits)).toHaveLength(1);
    await archive.record(privately('third', 'three'));
    expect((await visibleExchanges(archive, privateTurn(''))).map((exchange) => exchange.answer)).toEqual(['a long answer', 'three']);

    // A long answer is cut to what is left of the budget; the message never is.
    const longAnswer = createExchangeArchive(store.namespace<ExchangeList>('memory-exchanges-long'), { keepPerScope: 2, maxChars: 1000 });
    await longAnswer.record(privately('how do I reset the router?', `Hold the button ${'and wait '.repeat(60)}`));
    const [cut] = await recallExchanges(longAnswer, privateTurn('router reset?'), { budgetChars: 300, maxExchanges: 3 });
    expect(cut?.question).toBe('how do I reset the router?');
    expect(cut?.answer).toMatch(/^Hold the button and wait .*…$/);
    expect(formatRecalledExchanges(cut === undefined ? [] : [cut]).split('\n').slice(3).join('\n').length).toBeLessThanOrEqual(300);
    expect(await recallExchanges(longAnswer, privateTurn('router reset?'), { budgetChars: 100, maxExchanges: 3 })).toEqual([]);

    const section = formatRecalledExchanges(await recallExchanges(archive, privateTurn('third?'), limits));
    expect(section).toContain('Alice: third');
    expect(section).toContain('You answered: three');
  });

  it('/link moves the joining account\'s private exchanges into the linked person scope (capped there), and none stay behind', async () => {
    const store = await open();
    const archive = createExchangeArchive(store.namespace<ExchangeList>('memory-exchanges'), { keepPerScope: 2, maxChars: 600 });
    await archive.record(privately('the locker code is 5521', 'Noted.'));
    await archive.record({ ...privately('first on wechat', 'ok'), source: { authorId: 'wxid_a', authorName: 'Alice', channel: 'wechat', chatId: 'wxid_a', at: '2026-12-01T08:00:00.000Z' } });
    await archive.record({ ...privately('second on wechat', 'ok'), source: { authorId: 'wxid_a', authorName: 'Alice', channel: 'wechat', chatId: 'wxid_a', at: '2026-12-03T08:00:00.000Z' } });
    expect(await archive.merge({ kind: 'person', channel: 'wechat', userId: 'wxid_a' }, { kind: 'person', channel: 'telegram', userId: '42' })).toBe(2);
    expect((await archive.list({ kind: 'person', channel: 'telegram', userId: '42' })).map((exchange) => exchange.question)).toEqual(['the locker code is 5521', 'second on wechat']);
    expect(await archive.list({ kind: 'person', channel: 'wechat', userId: 'wxid_a' })).toEqual([]);
  });

  it('a budget used up refuses the embeddings call (reported, for the log line) and recall still finds the exchange by keywords', async () => {
    const store = await open();
    const archive = createExchangeArchive(store.namespace<ExchangeList>('memory-exchanges'), { keepPerScope: 10, maxChars: 600 });
    const periods = createPeriodClock({ timezone: 'UTC', now: () => new Date() });
    const ledger = createUsageLedger({ counters: store.namespace<UsageTotals>('usage'), prices: {}, periods, flushDelayMs: 5 });
    const budgets = createBudgetControl({
      config: budgetsSchema.parse({ user: { daily: { tokens: 60 } } }),
      ledger,
      states: store.namespace<BudgetState>('budget-state'),
      audit: { record: () => undefined },
      holds: createMemoryBudgetHolds(),
      prices: {},
      holdTtlMs: 60_000,
    });
    const calls: string[][] = [];
    const embeddings: EmbeddingsClient = {
      model: 'embed-test',
      async embed(texts) {
        calls.push([...texts]);
        return { ok: true, vectors: texts.map(deterministicEmbedding), inputTokens: 70 };
      },
    };
    const refused: string[] = [];
    const vectors = createFactVectors(store.namespace<ScopeVectors>('memory-vectors'), embeddings, undefined, {
      budgets,
      onUsage: (inputTokens, attribution) => ledger.record({ attribution, model: embeddings.model, usage: { inputTokens, cachedInputTokens: 0, outputTokens: 0 } }),
      onRefused: (attribution) => refused.push(attribution.origin),
    });
    const attribution = { origin: 'user' as const, sessionKey: 'telegram:42', userId: '42', channel: 'telegram', chatId: '42' };
    const exchange = await archive.record(privately('the door code is 4711', 'Noted: 4711.'));
    // The first call fits the budget and is settled to its usage (70 tokens, past the 60 of the day); the next one is refused.
    expect(await vectors.addItems([exchangeVectorItem(exchange)], attribution)).toBe(true);
    const similar = await vectors.itemSimilarities('door code?', [exchangeVectorItem(exchange)], attribution);
    expect(similar.size).toBe(0);
    expect(calls).toHaveLength(1);
    expect(refused).toEqual(['memory']);
    const recalled = await recallExchanges(archive, privateTurn('door code?'), { ...limits, similarity: async () => similar });
    expect(recalled.map((each) => each.question)).toEqual(['the door code is 4711']);
  });
});
