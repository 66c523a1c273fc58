import type { QqScene } from './to-inbound-message.js';

/**
 * QQ's passive-reply rules (send.md, since proactive sends ended on 2025-04-21): a reply names the message it
 * answers (`msg_id`) and is accepted within a window after it, a limited number of times.
 */
export const qqReplyRules: Readonly<Record<QqScene, { readonly windowMs: number; readonly maxReplies: number }>> = {
  c2c: { windowMs: 60 * 60_000, maxReplies: 5 },
  group: { windowMs: 5 * 60_000, maxReplies: 5 },
};

/** Whether one more passive reply to a message may still be sent. */
export type ReplyCheck = { readonly ok: true } | { readonly ok: false; readonly reason: 'reply-window-closed' | 'reply-limit-reached' };

/** Checks the window and the count before calling the platform (which enforces both too). Pure. */
export function checkReply(input: { readonly scene: QqScene; readonly sentAt: Date; readonly now: Date; readonly repliesSent: number }): ReplyCheck {
  const rules = qqReplyRules[input.scene];
  if (input.now.getTime() - input.sentAt.getTime() > rules.windowMs) return { ok: false, reason: 'reply-window-closed' };
  if (input.repliesSent >= rules.maxReplies) return { ok: false, reason: 'reply-limit-reached' };
  return { ok: true };
}
