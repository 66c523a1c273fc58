import type { ChatMessage } from '../model/chat-message.js';

/** How a compaction summary begins: it marks the one system message the runtime keeps at the head of a history. */
export const compactionSummaryHeading = 'Summary of the earlier conversation (written when the history was compacted; the messages it covers are no longer shown):\n';

/** The message kept at the head of a compacted history. Pure. */
export function createSummaryMessage(summary: string): ChatMessage {
  return { role: 'system', content: `${compactionSummaryHeading}${summary}` };
}

/** True for the summary message compaction keeps at the head of a history. Pure. */
export function isCompactionSummary(message: ChatMessage | undefined): boolean {
  return message?.role === 'system' && message.content.startsWith(compactionSummaryHeading);
}

/** The summary's text without its heading, or undefined when the message is no summary. Pure. */
export function summaryTextOf(message: ChatMessage | undefined): string | undefined {
  return message !== undefined && isCompactionSummary(message) ? message.content.slice(compactionSummaryHeading.length) : undefined;
}
