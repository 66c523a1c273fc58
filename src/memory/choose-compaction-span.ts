import type { ChatMessage } from '../model/chat-message.js';
import { isCompactionSummary } from './compaction-summary.js';
import { messageSize, messagesSize } from './message-size.js';

/**
 * How many leading messages to compact, or 0 when the history is within `budgetChars`. The span ends before a user
 * message (an assistant message with tool calls stays with its results) and leaves at most `keepChars` after it where
 * it can, but always the newest exchange. The previous summary at the head is part of the span. Pure.
 */
export function chooseCompactionSpan(messages: readonly ChatMessage[], options: { readonly budgetChars: number; readonly keepChars: number }): number {
  if (messagesSize(messages) <= options.budgetChars) return 0;
  const firstExchange = isCompactionSummary(messages[0]) ? 1 : 0;
  const cutPoints: number[] = [];
  for (const [index, message] of messages.entries()) if (message.role === 'user' && index > firstExchange) cutPoints.push(index);
  let remaining = messagesSize(messages);
  let start = 0;
  for (const cut of cutPoints) {
    if (remaining <= options.keepChars) break;
    for (let index = start; index < cut; index += 1) remaining -= messageSize(messages[index] as ChatMessage);
    start = cut;
  }
  // A span of the summary alone would only rewrite it: nothing to compact yet.
  return start > firstExchange ? start : 0;
}
