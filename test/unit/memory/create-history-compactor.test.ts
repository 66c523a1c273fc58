import { afterEach, describe, expect, it } from 'vitest';
import { createSessionHistory, type SessionHistory, type SessionRecord } from '../../../src/agent/session-history.js';
import type { CompactionCursor } from '../../../src/memory/compaction-cursor.js';
import { compactionPrompt } from '../../../src/memory/compaction-prompt.js';
import { createSummaryMessage, isCompactionSummary, summaryTextOf } from '../../../src/memory/compaction-summary.js';
import { createHistoryCompactor, type SpanFactExtractor } from '../../../src/memory/create-history-compactor.js';
import { messagesSize } from '../../../src/memory/message-size.js';
import type { ChatMessage } from '../../../src/model/chat-message.js';
import type { ModelPort, ModelRequest, UsageAttribution } from '../../../src/model/model-port.js';
import { createStore } from '../../../src/store/create-store.js';
import type { KeyValueNamespace, Store } from '../../../src/store/key-value-namespace.js';
import { createTemporaryFolder } from '../registry/registry-fixtures.js';
import { type ScriptedAnswer, scriptedModel, silentLogger } from '../registry/turn-fixtures.js';

const sessionKey = 'telegram:42';
const attribution: UsageAttribution = { origin: 'user', sessionKey, userId: '42', channel: 'telegram', chatId: '42' };
const budgetChars = 2000;
const keepChars = 1000;

const user = (content: string): ChatMessage => ({ role: 'user', content });
const answer = (content: string): ChatMessage => ({ role: 'assistant', content });

/** One exchange of about 200 characters, numbered so a span can be recognised. */
function exchange(index: number): ChatMessage[] {
  return [user(`message ${index} ${'u'.repeat(80)}`), answer(`reply ${index} ${'a'.repeat(80)}`)];
}

/** The text of the transcript the summariser was given (its user message). */
const transcriptOf = (request: ModelRequest | undefined) => request?.messages[1]?.content ?? '';

/**
 * A summariser that keeps what it is told: the earlier summary's lines and every "Person:" line that states a fact
 * ("my ... is ..."), in order; so a test can see what reached the summary without a real model.
 */
const carryFacts = (request: ModelRequest): ScriptedAnswer => {
  const transcript = transcriptOf(request);
  const earlier = /Earlier summary:\n([\s\S]*?)\n\n/.exec(transcript)?.[1]?.split('\n') ?? [];
  const stated = transcript.split('\n').filter((line) => line.startsWith('Person:') && / my .* is /.test(line));
  return { text: [...new Set([...earlier, ...stated])].filter((line) => line !== '').join('\n') || 'Small talk.' };
};

describe('history compaction over a real SQLite store', () => {
  const folders: ReturnType<typeof createTemporaryFolder>[] = [];
  const stores: Store[] = [];
  afterEach(async () => {
    while (stores.length > 0) await stores.pop()?.close();
    while (folders.length > 0) folders.pop()?.remove();
  });

  function folder(): string {
    const created = createTemporaryFolder('compaction');
    folders.push(created);
    return created.path;
  }

  /** Opens the store in `dataDir` (again) and builds history and compactor over it, as a fresh process would. */
  async function open(
    dataDir: string,
    model: ModelPort,
    options: { readonly extractFacts?: SpanFactExtractor; readonly wrapHistory?: (history: SessionHistory) => SessionHistory; readonly wrapCursors?: (cursors: KeyValueNamespace<CompactionCursor>) => KeyValueNamespace<CompactionCursor> } = {},
  ) {
    const store = await createStore({ dataDir });
    stores.push(store);
    // The stored history is bounded only by the ceiling (four budgets), as with memory on.
    const history = createSessionHistory(store.namespace<SessionRecord>('sessions'), { budgetChars: budgetChars * 4 });
    const cursors = store.namespace<CompactionCursor>('compaction-cursors');
    const compactor = createHistoryCompactor({
      history: options.wrapHistory?.(history) ?? history,
      cursors: options.wrapCursors?.(cursors) ?? cursors,
      model,
      budgetChars,
      keepChars,
      summaryMaxTokens: 300,
      ...(options.extractFacts === undefined ? {} : { extractFacts: options.extractFacts }),
      logger: await silentLogger(),
      now: () => new Date('2026-12-02T08:00:00Z'),
    });
    return { store, history, cursors, compactor };
  }

  async function fill(history: SessionHistory, from: number, to: number): Promise<void> {
    for (let index = from; index < to; index += 1) await history.append(sessionKey, exchange(index));
  }

  it('does nothing while the history is within its budget', async () => {
    const { model, requests } = scriptedModel([]);
    const { history, cursors, compactor } = await open(folder(), model);
    await fill(history, 0, 5);
    expect(await compactor.compactIfNeeded(sessionKey, attribution)).toEqual({ kind: 'within-budget' });
    expect(requests).toHaveLength(0);
    expect(await cursors.get(sessionKey)).toBeUndefined();
  });

  it('summarises the oldest span with the fixed prompt, keeps the newest exchanges and accounts the call as compaction', async () => {
    const { model, requests } = scriptedModel([{ text: 'The person said hello many times.' }]);
    const { history, cursors, compactor } = await open(folder(), model);
    await fill(history, 0, 12);
    const before = await history.load(sessionKey);
    expect(messagesSize(before)).toBeGreaterThan(budgetChars);

    const outcome = await compactor.compactIfNeeded(sessionKey, attribution);

    expect(outcome.kind).toBe('compacted');
    expect(requests).toHaveLength(1);
    const request = requests[0];
    expect(request?.messages[0]).toEqual({ role: 'system', content: compactionPrompt });
    expect(request?.attribution).toEqual({ ...attribution, origin: 'compaction' });
    expect(request?.tools).toEqual([]);
    expect(request?.temperature).toBe(0);
    expect(request?.maxTokens).toBe(300);
    const after = await history.load(sessionKey);
    expect(after[0]).toEqual(createSummaryMessage('The person said hello many times.'));
    const kept = after.slice(1);
    // The kept part is the newest exchanges, whole, and fits what compaction leaves.
    expect(before.slice(before.length - kept.length)).toEqual(kept);
    expect(messagesSize(kept)).toBeLessThanOrEqual(keepChars);
    expect(kept[0]?.role).toBe('user');
    // Every dropped message was in the transcript the summariser read.
    for (const message of before.slice(0, before.length - kept.length)) expect(transcriptOf(request)).toContain(message.content);
    for (const message of kept) expect(transcriptOf(request)).not.toContain(message.content);
    expect(await cursors.get(sessionKey)).toBeUndefined();
  });

  it('folds the earlier summary into the next one: one summary at the head, never two', async () => {
    const { model, requests } = scriptedModel([{ text: 'first summary' }, { text: 'second summary' }]);
    const { history, compactor } = await open(folder(), model);
    await fill(history, 0, 12);
    await compactor.compactIfNeeded(sessionKey, attribution);
    await fill(history, 12, 24);
    expect((await compactor.compactIfNeeded(sessionKey, attribution)).kind).toBe('compacted');
    expect(transcriptOf(requests[1])).toContain('Earlier summary:\nfirst summary');
    const after = await history.load(sessionKey);
    expect(after[0]).toEqual(createSummaryMessage('second summary'));
    expect(after.filter((message) => isCompactionSummary(message))).toHaveLength(1);
  });

  it('answers a fact stated 200 exchanges ago from the summary at the head of the history', async () => {
    const { model } = scriptedModel(carryFacts);
    const { history, compactor } = await open(folder(), model);
    await history.append(sessionKey, [user('Please note: my locker code is 4417.'), answer('Noted.')]);
    for (let index = 1; index <= 200; index += 1) {
      await history.append(sessionKey, exchange(index));
      await compactor.compactIfNeeded(sessionKey, attribution);
    }
    const messages = await history.load(sessionKey);
    // What the next model call sees: the exchange itself is long gone, the fact is at the head.
    expect(messages.some((message) => message.role === 'user' && message.content.includes('locker code'))).toBe(false);
    expect(summaryTextOf(messages[0])).toContain('my locker code is 4417');
    expect(messagesSize(messages)).toBeLessThanOrEqual(budgetChars + 200);
  });

  it('gives the span to the fact extractor before anything of it is dropped, without the earlier summary', async () => {
    const { model } = scriptedModel([{ text: 'one' }, { text: 'two' }]);
    const seen: { span: readonly ChatMessage[]; historyAtCall: readonly ChatMessage[] }[] = [];
    let history: SessionHistory | undefined;
    const extractFacts: SpanFactExtractor = async ({ span }) => {
      seen.push({ span, historyAtCall: (await history?.load(sessionKey)) ?? [] });
      return true;
    };
    const opened = await open(folder(), model, { extractFacts });
    history = opened.history;
    await fill(opened.history, 0, 12);
    const before = await opened.history.load(sessionKey);
    await opened.compactor.compactIfNeeded(sessionKey, attribution);
    await fill(opened.history, 12, 24);
    await opened.compactor.compactIfNeeded(sessionKey, attribution);

    expect(seen).toHaveLength(2);
    const first = seen[0];
    expect(first?.historyAtCall).toEqual(before);
    expect(before.slice(0, first?.span.length)).toEqual(first?.span);
    expect(seen[1]?.span.some((message) => isCompactionSummary(message))).toBe(false);
    expect(seen[1]?.span[0]?.role).toBe('user');
  });

  it('drops nothing when the extractor could not finish, and tries the same span again', async () => {
    const { model, requests } = scriptedModel([{ text: 'try one' }, { text: 'try two' }]);
    let succeed = false;
    const spans: (readonly ChatMessage[])[] = [];
    const { history, compactor } = await open(folder(), model, {
      extractFacts: async ({ span }) => {
        spans.push(span);
        return succeed;
      },
    });
    await fill(history, 0, 12);
    const before = await history.load(sessionKey);
    expect(await compactor.compactIfNeeded(sessionKey, attribution)).toEqual({ kind: 'facts-failed' });
    expect(await history.load(sessionKey)).toEqual(before);
    succeed = true;
    expect((await compactor.compactIfNeeded(sessionKey, attribution)).kind).toBe('compacted');
    expect(spans[1]).toEqual(spans[0]);
    expect(requests).toHaveLength(2);
  });

  it('keeps the history whole when the model fails, and compacts the same span after the next turn', async () => {
    const failure = { kind: 'server' as const, message: '503', retryable: true, provider: 'scripted' };
    const { model, requests } = scriptedModel([{ failure }, { text: 'later' }]);
    const { history, cursors, compactor } = await open(folder(), model);
    await fill(history, 0, 12);
    const before = await history.load(sessionKey);
    expect(await compactor.compactIfNeeded(sessionKey, attribution)).toEqual({ kind: 'model-failed', failure });
    expect(await history.load(sessionKey)).toEqual(before);
    expect((await cursors.get(sessionKey))?.state).toBe('pending');
    await history.append(sessionKey, exchange(12));
    expect((await compactor.compactIfNeeded(sessionKey, attribution)).kind).toBe('compacted');
    // The second attempt summarised the span chosen first, not a new one.
    expect(transcriptOf(requests[1])).toBe(transcriptOf(requests[0]));
  });

  describe('a crash at each step, then a new process on the same store', () => {
    /** Runs one compaction that dies at `step`, then reopens the store and runs it again; returns what both saw. */
    async function crashAt(step: 'model-call' | 'history-rewrite' | 'cursor-removal') {
      const dataDir = folder();
      const first = scriptedModel(() => {
        if (step === 'model-call') throw new Error('process killed during the summary call');
        return { text: 'summary of 0 to 6' };
      });
      const crashing = await open(dataDir, first.model, {
        wrapHistory: (history) => ({
          ...history,
          update: step === 'history-rewrite' ? () => Promise.reject(new Error('process killed before the rewrite')) : history.update,
        }),
        wrapCursors: (cursors) => ({
          ...cursors,
          get: cursors.get,
          set: cursors.set,
          update: cursors.update,
          delete: step === 'cursor-removal' ? () => Promise.reject(new Error('process killed before the cursor was removed')) : cursors.delete,
        }),
      });
      await fill(crashing.history, 0, 12);
      const original = await crashing.history.load(sessionKey);
      await expect(crashing.compactor.compactIfNeeded(sessionKey, attribution)).rejects.toThrow(/process killed/);
      await stores.pop()?.close();

      const second = scriptedModel([{ text: 'summary written after the restart' }]);
      const restarted = await open(dataDir, second.model);
      const outcome = await restarted.compactor.compactIfNeeded(sessionKey, attribution);
      return { original, outcome, after: await restarted.history.load(sessionKey), cursor: await restarted.cursors.get(sessionKey), firstCalls: first.requests, secondCalls: second.requests };
    }

    it('during the summary call: the span is still there and is summarised once after the restart', async () => {
      const { original, after, cursor, secondCalls } = await crashAt('model-call');
      expect(secondCalls).toHaveLength(1);
      expect(after[0]).toEqual(createSummaryMessage('summary written after the restart'));
      expect(original.slice(original.length - (after.length - 1))).toEqual(after.slice(1));
      expect(cursor).toBeUndefined();
    });

    it('after the summary was saved, before the rewrite: the saved summary is used, no second model call', async () => {
      const { original, after, cursor, firstCalls, secondCalls } = await crashAt('history-rewrite');
      expect(firstCalls).toHaveLength(1);
      expect(secondCalls).toHaveLength(0);
      expect(after[0]).toEqual(createSummaryMessage('summary of 0 to 6'));
      expect(after.filter((message) => isCompactionSummary(message))).toHaveLength(1);
      expect(original.slice(original.length - (after.length - 1))).toEqual(after.slice(1));
      expect(cursor).toBeUndefined();
    });

    it('after the rewrite, before the cursor was removed: nothing is summarised or rewritten again', async () => {
      const { original, outcome, after, cursor, secondCalls } = await crashAt('cursor-removal');
      expect(outcome).toEqual({ kind: 'within-budget' });
      expect(secondCalls).toHaveLength(0);
      expect(after[0]).toEqual(createSummaryMessage('summary of 0 to 6'));
      expect(after.filter((message) => isCompactionSummary(message))).toHaveLength(1);
      expect(original.slice(original.length - (after.length - 1))).toEqual(after.slice(1));
      expect(cursor).toBeUndefined();
    });
  });

  it('forgets a cursor whose span is gone because the session was reset', async () => {
    const failure = { kind: 'server' as const, message: '503', retryable: true, provider: 'scripted' };
    const { model } = scriptedModel([{ failure }]);
    const { history, cursors, compactor } = await open(folder(), model);
    await fill(history, 0, 12);
    await compactor.compactIfNeeded(sessionKey, attribution);
    expect(await cursors.get(sessionKey)).toBeDefined();
    await history.reset(sessionKey);
    await fill(history, 0, 2);
    expect(await compactor.compactIfNeeded(sessionKey, attribution)).toEqual({ kind: 'within-budget' });
    expect(await cursors.get(sessionKey)).toBeUndefined();
  });
});
