import type { UpdateSource } from './to-event.js';

/** Who may do what, from `channels.telegram`. */
export type AccessLists = {
  readonly allowFrom: readonly string[];
  readonly approvers: readonly string[];
  readonly groups: readonly string[];
};

/** What to do with an update from a source. */
export type AccessDecision =
  | { readonly kind: 'allow' }
  /** An unknown person in a private chat while nobody is allowed yet: tell them their id (rate-limited). */
  | { readonly kind: 'stranger-notice' }
  /** A button press by someone who may not use the bot: answer it with an alert, decide nothing. */
  | { readonly kind: 'refuse-press' }
  | { readonly kind: 'ignore'; readonly reason: string };

/**
 * The access rule. Only `allowFrom` users reach the bus; approvers may also press buttons and type
 * /approve, /deny and /approvals (the core checks who may decide each approval). Groups must be
 * listed, and the bot answers there only when addressed. Pure.
 */
export function decideAccess(source: UpdateSource, kind: 'message' | 'press', lists: AccessLists): AccessDecision {
  const isApprover = lists.approvers.includes(source.senderId);
  // Approvers need not be allowed users: they may press buttons and type the approval commands, nothing else.
  const isAllowed = lists.allowFrom.includes(source.senderId) || (kind === 'message' && isApprover && source.isApprovalCommand === true);
  if (kind === 'press') return isAllowed || isApprover ? { kind: 'allow' } : { kind: 'refuse-press' };
  if (source.isGroup) {
    if (!lists.groups.includes(source.chatId)) return { kind: 'ignore', reason: 'group not in channels.telegram.groups' };
    if (!source.mentioned) return { kind: 'ignore', reason: 'group message not addressed to the bot' };
    return isAllowed ? { kind: 'allow' } : { kind: 'ignore', reason: 'sender not in allowFrom' };
  }
  if (isAllowed) return { kind: 'allow' };
  return lists.allowFrom.length === 0 ? { kind: 'stranger-notice' } : { kind: 'ignore', reason: 'sender not in allowFrom' };
}
