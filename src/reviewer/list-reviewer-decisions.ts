import type { SmartApprovalCommandPorts } from './smart-approvals.js';

const shown = 5;
const marks = { approve: '✔', deny: '✖', escalate: '↗' } as const;

/** The lines `/approvals` adds for the reviewer's last decisions this person asked for or would have decided; none without any. */
export async function listReviewerDecisions(deps: Pick<SmartApprovalCommandPorts, 'messagesFor' | 'smartApprovals'>, input: { readonly userId: string; readonly channel: string }): Promise<readonly string[]> {
  const recent = await deps.smartApprovals?.recent.listFor(input.userId, input.channel, shown);
  if (!recent || recent.length === 0) return [];
  const messages = deps.messagesFor(input.channel);
  return ['', messages.reviewerDecisionsHeader, ...recent.map((review) => `${marks[review.decision]} ${review.toolName}: ${review.summary} — ${review.reason} (${review.model})`)];
}
