import { describe, expect, it } from 'vitest';
import { chooseCompactionSpan } from '../../../src/memory/choose-compaction-span.js';
import { createSummaryMessage } from '../../../src/memory/compaction-summary.js';
import { messagesSize } from '../../../src/memory/message-size.js';
import type { ChatMessage } from '../../../src/model/chat-message.js';

/** Exchanges of a question, a call with its result, and an answer: about `width` * 4 characters each. */
function conversation(exchanges: number, width = 50): ChatMessage[] {
  return Array.from({ length: exchanges }, (_, index): ChatMessage[] => [
    { role: 'user', content: `q${index} ${'u'.repeat(width)}` },
    { role: 'assistant', content: '', toolCalls: [{ id: `c${index}`, name: 'web_fetch', argumentsText: 'x'.repeat(width) }] },
    { role: 'tool', toolCallId: `c${index}`, toolName: 'web_fetch', content: 'r'.repeat(width) },
    { role: 'assistant', content: `a${index} ${'a'.repeat(width)}` },
  ]).flat();
}

describe('chooseCompactionSpan', () => {
  it('is 0 while the history fits its budget', () => {
    const messages = conversation(4);
    expect(chooseCompactionSpan(messages, { budgetChars: messagesSize(messages), keepChars: 10 })).toBe(0);
  });

  it('ends before a user message at every budget, so a call is never parted from its result, and keeps the newest exchange', () => {
    const messages = conversation(8, 30);
    const total = messagesSize(messages);
    for (let budget = 100; budget < total; budget += 53) {
      const span = chooseCompactionSpan(messages, { budgetChars: budget, keepChars: Math.floor(budget / 2) });
      expect(span).toBeGreaterThan(0);
      expect(messages[span]?.role).toBe('user');
      expect(span).toBeLessThanOrEqual(messages.length - 4);
      const kept = messages.slice(span);
      // As much as needed and no more: the kept part fits, or is the newest exchange alone.
      expect(messagesSize(kept) <= Math.floor(budget / 2) || kept.length === 4).toBe(true);
    }
  });

  it('takes the earlier summary into the span and never compacts the summary alone', () => {
    const summary = createSummaryMessage('s'.repeat(500));
    const messages = [summary, ...conversation(1)];
    expect(chooseCompactionSpan(messages, { budgetChars: 100, keepChars: 50 })).toBe(0);
    const longer = [summary, ...conversation(6)];
    const span = chooseCompactionSpan(longer, { budgetChars: 300, keepChars: 150 });
    expect(span).toBeGreaterThan(1);
    expect(longer[span]?.role).toBe('user');
  });
});
