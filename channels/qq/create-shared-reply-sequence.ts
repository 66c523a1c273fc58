import type { KeyValueNamespace } from '../../src/store/key-value-namespace.js';
import { qqReplyRules } from './reply-rules.js';

/** Reserves the next `msg_seq` for a reply to one person's message; a failure (the store is down) is a value. */
export type ReplySequence = (messageId: string) => Promise<{ readonly ok: true; readonly msgSeq: number } | { readonly ok: false; readonly message: string }>;

/** A message's replies, as counted in the shared store. */
export type ReplyCount = { readonly reserved: number };

/** Longest QQ takes replies to a message, plus a margin: the count is kept that long. */
const keptMs = Math.max(qqReplyRules.c2c.windowMs, qqReplyRules.group.windowMs) + 5 * 60_000;

/**
 * Numbers replies in the shared store (cluster mode): any instance may send a reply to a message (a card from one, the
 * answer after the press from another), and QQ drops a second reply with the same `msg_id` + `msg_seq` as a duplicate,
 * so counters of each instance's own would lose it. One atomic add per reply.
 */
export function createSharedReplySequence(options: { readonly counts: KeyValueNamespace<ReplyCount>; readonly appId: string }): ReplySequence {
  return async (messageId) => {
    try {
      const counted = await options.counts.add(`${options.appId}:${messageId}`, { reserved: 1 }, keptMs);
      return { ok: true, msgSeq: counted.reserved };
    } catch (error) {
      return { ok: false, message: `the reply could not be numbered: ${error instanceof Error ? error.message : String(error)}` };
    }
  };
}
