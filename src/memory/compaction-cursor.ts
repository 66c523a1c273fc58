import { createHash } from 'node:crypto';
import type { ChatMessage } from '../model/chat-message.js';

/**
 * The durable record of one session's compaction (namespace `compaction-cursors`, key: the session key). The span is
 * always the first `spanLength` messages of the history (the previous summary, if any, and the oldest exchanges),
 * recognised by `spanFingerprint`. `pending`: chosen, not yet summarised; `summarised`: the summary is written here and
 * facts were extracted, the history not yet rewritten. The record is removed once the history holds the summary.
 */
export type CompactionCursor =
  | { readonly state: 'pending'; readonly spanLength: number; readonly spanFingerprint: string; readonly startedAt: string }
  | {
      readonly state: 'summarised';
      readonly spanLength: number;
      readonly spanFingerprint: string;
      readonly startedAt: string;
      readonly summary: string;
      readonly summarisedAt: string;
    };

/** A stable digest of messages, to recognise a span in the history again after a restart. Pure. */
export function fingerprintOf(messages: readonly ChatMessage[]): string {
  return createHash('sha256').update(JSON.stringify(messages)).digest('hex');
}
