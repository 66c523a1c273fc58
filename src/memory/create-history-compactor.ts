import type { BudgetControl } from '../budgets/create-budget-control.js';
import type { Logger } from '../logging/create-logger.js';
import type { ChatMessage } from '../model/chat-message.js';
import type { ModelFailure, ModelPort, ModelRequest, UsageAttribution } from '../model/model-port.js';
import type { KeyValueNamespace } from '../store/key-value-namespace.js';
import { chooseCompactionSpan } from './choose-compaction-span.js';
import { completeWithinBudget } from './complete-within-budget.js';
import { type CompactionCursor, fingerprintOf } from './compaction-cursor.js';
import { compactionPrompt, renderSpanForSummary } from './compaction-prompt.js';
import { createSummaryMessage, isCompactionSummary, summaryTextOf } from './compaction-summary.js';

/** The part of session history compaction works on (the agent's `SessionHistory` fits). */
export interface CompactableHistory {
  load(sessionKey: string): Promise<readonly ChatMessage[]>;
  update(sessionKey: string, change: (messages: readonly ChatMessage[]) => readonly ChatMessage[]): Promise<readonly ChatMessage[]>;
}

/** Called with a span's exchanges (the earlier summary left out) after it is summarised and before the history drops it; resolves to false when it could not finish (the span is tried again next time). Must be safe to call twice for one span. */
export type SpanFactExtractor = (input: { readonly sessionKey: string; readonly span: readonly ChatMessage[]; readonly attribution: UsageAttribution }) => Promise<boolean>;

/** What one compaction attempt did. */
export type CompactionOutcome =
  | { readonly kind: 'within-budget' }
  | { readonly kind: 'compacted'; readonly spanLength: number; readonly summaryChars: number }
  | { readonly kind: 'model-failed'; readonly failure: ModelFailure }
  | { readonly kind: 'budget-stopped' }
  | { readonly kind: 'facts-failed' };

/** Compacts a session's history when it is over its budget; safe to interrupt at any point. */
export interface HistoryCompactor {
  compactIfNeeded(sessionKey: string, attribution: UsageAttribution): Promise<CompactionOutcome>;
}

/** What a history compactor is built from. */
export type HistoryCompactorOptions = {
  readonly history: CompactableHistory;
  /** Namespace `compaction-cursors`: one record per session while a compaction is under way. */
  readonly cursors: KeyValueNamespace<CompactionCursor>;
  readonly model: ModelPort;
  /** Compaction starts when the history is over this many characters (`agent.historyBudgetChars`). */
  readonly budgetChars: number;
  /** What compaction leaves after the span, where it can (`memory.compaction.keepFraction` of the budget). */
  readonly keepChars: number;
  /** Output tokens of the summary call. */
  readonly summaryMaxTokens: number;
  readonly budgets?: BudgetControl;
  readonly extractFacts?: SpanFactExtractor;
  /** How long a cursor lives (the session's idle lifetime): a cursor of a forgotten session goes with it. */
  readonly cursorTtlMs?: number;
  readonly logger: Logger;
  readonly now: () => Date;
};

/** True when the history still begins with the cursor's span. Pure. */
function holdsSpan(messages: readonly ChatMessage[], cursor: CompactionCursor): boolean {
  return messages.length > cursor.spanLength && fingerprintOf(messages.slice(0, cursor.spanLength)) === cursor.spanFingerprint;
}

/**
 * Creates the compactor. Each step is written before the next begins: the cursor (`pending`, the span by length and
 * fingerprint), then the summary and the facts (`summarised`), then the history rewrite (the span replaced by the
 * summary, in one compare-and-set), then the cursor removed. A crash before the rewrite leaves the span in the history
 * and the cursor says what is done; a crash after it leaves a cursor whose span is gone and whose summary heads the
 * history, which is then removed. So no span is lost and none is summarised into the history twice.
 */
export function createHistoryCompactor(options: HistoryCompactorOptions): HistoryCompactor {
  const { history, cursors } = options;

  async function summarise(span: readonly ChatMessage[], attribution: UsageAttribution): Promise<{ readonly ok: true; readonly summary: string } | { readonly ok: false; readonly outcome: CompactionOutcome }> {
    const compaction: UsageAttribution = { ...attribution, origin: 'compaction' };
    const request: ModelRequest = {
      messages: [
        { role: 'system', content: compactionPrompt },
        { role: 'user', content: renderSpanForSummary(span) },
      ],
      tools: [],
      maxTokens: options.summaryMaxTokens,
      temperature: 0,
      attribution: compaction,
    };
    const result = await completeWithinBudget({ model: options.model, ...(options.budgets === undefined ? {} : { budgets: options.budgets }), request: { ...request, attribution: compaction } });
    if (result.ok) return { ok: true, summary: result.text.trim() };
    return { ok: false, outcome: result.kind === 'model-failed' ? { kind: 'model-failed', failure: result.failure } : { kind: 'budget-stopped' } };
  }

  async function startCursor(sessionKey: string, messages: readonly ChatMessage[]): Promise<CompactionCursor | undefined> {
    const spanLength = chooseCompactionSpan(messages, { budgetChars: options.budgetChars, keepChars: options.keepChars });
    if (spanLength === 0) return undefined;
    const cursor: CompactionCursor = { state: 'pending', spanLength, spanFingerprint: fingerprintOf(messages.slice(0, spanLength)), startedAt: options.now().toISOString() };
    await cursors.set(sessionKey, cursor, options.cursorTtlMs);
    return cursor;
  }

  async function applySummary(sessionKey: string, cursor: Extract<CompactionCursor, { state: 'summarised' }>): Promise<void> {
    await history.update(sessionKey, (current) => (holdsSpan(current, cursor) ? [createSummaryMessage(cursor.summary), ...current.slice(cursor.spanLength)] : current));
    await cursors.delete(sessionKey);
  }

  return {
    async compactIfNeeded(sessionKey, attribution) {
      const messages = await history.load(sessionKey);
      let cursor = await cursors.get(sessionKey);
      if (cursor !== undefined && !holdsSpan(messages, cursor)) {
        // The span is gone: the rewrite happened before a crash (its summary heads the history), or the session was reset.
        const applied = cursor.state === 'summarised' && summaryTextOf(messages[0]) === cursor.summary;
        options.logger.info({ sessionKey, applied }, applied ? 'compaction finished before a restart; cursor removed' : 'compaction cursor no longer matches the history; removed');
        await cursors.delete(sessionKey);
        cursor = undefined;
      }
      cursor ??= await startCursor(sessionKey, messages);
      if (cursor === undefined) return { kind: 'within-budget' };
      if (cursor.state === 'pending') {
        const span = messages.slice(0, cursor.spanLength);
        const summarised = await summarise(span, attribution);
        if (!summarised.ok) {
          options.logger.warn({ sessionKey, outcome: summarised.outcome }, 'compaction did not run; the history is kept whole and tried again after the next turn');
          return summarised.outcome;
        }
        // Facts are taken from the span before anything of it is dropped.
        const exchanges = span.filter((message) => !isCompactionSummary(message));
        if (options.extractFacts !== undefined && !(await options.extractFacts({ sessionKey, span: exchanges, attribution }))) return { kind: 'facts-failed' };
        cursor = { ...cursor, state: 'summarised', summary: summarised.summary, summarisedAt: options.now().toISOString() };
        await cursors.set(sessionKey, cursor, options.cursorTtlMs);
      }
      await applySummary(sessionKey, cursor);
      return { kind: 'compacted', spanLength: cursor.spanLength, summaryChars: cursor.summary.length };
    },
  };
}
