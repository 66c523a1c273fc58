import type { ApprovalsService } from '../approvals/approvals-service.js';
import type { PendingApproval } from '../approvals/pending-approval.js';
import type { ApprovalChoice } from '../events/approval-card.js';
import type { Target } from '../events/target.js';

/** A numbered reply on a channel without buttons: `1`, `2` or `3`, optionally naming the card (`1 k7m2p9q4r8s3`). */
export type NumberedReply = { readonly choice: ApprovalChoice; readonly approvalId?: string };

/** Which card a numbered reply decides: one, none (an ordinary message), or several that wait for this person (ask to name one). */
export type NumberedPick = { readonly kind: 'decide'; readonly approvalId: string } | { readonly kind: 'ambiguous'; readonly approvalIds: readonly string[] } | { readonly kind: 'none' };

const numberedChoices: Readonly<Record<string, ApprovalChoice>> = { '1': 'once', '2': 'always', '3': 'deny' };
const numberedPattern = /^([123])(?:\s+([a-z0-9]{4,40}))?$/i;

/** Reads `1`, `2`, `3` or `1 <approval id>`; undefined for any other text. Pure. */
export function parseNumberedReply(text: string): NumberedReply | undefined {
  const match = numberedPattern.exec(text.trim());
  const choice = numberedChoices[match?.[1] ?? ''];
  if (match === null || choice === undefined) return undefined;
  return match[2] === undefined ? { choice } : { choice, approvalId: match[2].toLowerCase() };
}

/**
 * Picks the card a numbered reply decides, never guessing between cards: a named card shown in this
 * chat; else the only card in this chat the sender may decide; several such cards: ask which. With
 * none the sender may decide, the newest card of the chat is picked, so the refusal is said aloud.
 */
export async function pickNumberedApproval(
  approvals: Pick<ApprovalsService, 'get' | 'listDecidableBy' | 'latestPendingIn'>,
  input: { readonly reply: NumberedReply; readonly chat: Target; readonly senderId: string },
): Promise<NumberedPick> {
  const shownHere = (approval: PendingApproval) => approval.cards.some((card) => card.target.channel === input.chat.channel && card.target.chatId === input.chat.chatId);
  if (input.reply.approvalId !== undefined) {
    const named = await approvals.get(input.reply.approvalId);
    return named !== undefined && named.status === 'pending' && shownHere(named) ? { kind: 'decide', approvalId: named.id } : { kind: 'none' };
  }
  const decidable = (await approvals.listDecidableBy(input.senderId, input.chat.channel)).filter(shownHere);
  const [only] = decidable;
  if (decidable.length === 1 && only !== undefined) return { kind: 'decide', approvalId: only.id };
  if (decidable.length > 1) return { kind: 'ambiguous', approvalIds: decidable.map((approval) => approval.id) };
  const latest = await approvals.latestPendingIn(input.chat);
  return latest === undefined ? { kind: 'none' } : { kind: 'decide', approvalId: latest.id };
}
