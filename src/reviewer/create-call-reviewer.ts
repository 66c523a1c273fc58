import type { Outbox } from '../events/outbox.js';
import type { Target } from '../events/target.js';
import type { Messages } from '../i18n/messages.js';
import type { AuditLog } from '../registry/audit-log.js';
import type { ToolDefinition } from '../registry/define-tool.js';
import type { ApprovalReviewer } from './create-approval-reviewer.js';
import type { RecentReviews } from './recent-reviews.js';
import type { ReviewerVerdict } from './reviewer-verdict.js';
import type { SmartPreferences } from './smart-preferences.js';
import type { ApprovalRouteFor } from '../approvals/approval-route.js';

/** A call the gate marked reviewable, and the attended turn it belongs to. */
export type CallReviewRequest = {
  readonly traceId: string;
  readonly sessionKey: string;
  readonly userId: string;
  readonly channel: string;
  readonly target: Target;
  readonly tool: ToolDefinition;
  readonly input: unknown;
};

/** Settles a reviewable call: a verdict, or undefined when the person chose `/smart off` (a card as usual). */
export type CallReviewer = (request: CallReviewRequest) => Promise<ReviewerVerdict | undefined>;

/** What the call reviewer is built from (by the composition root). */
export type CallReviewerOptions = {
  readonly review: ApprovalReviewer;
  readonly preferences: SmartPreferences;
  readonly recent: RecentReviews;
  readonly audit: Pick<AuditLog, 'record'>;
  readonly outbox: Outbox;
  readonly messagesFor: (channel: string) => Messages;
  /** `chat`: a short line in the chat when the reviewer approved or denied; `silent`: none. */
  readonly notice: 'chat' | 'silent';
  readonly approvalRouteFor: ApprovalRouteFor;
  readonly timezone: string;
  readonly now: () => Date;
};

/** Asks the reviewer about a call (unless the person turned it off), then audits, remembers and announces the verdict. */
export function createCallReviewer(options: CallReviewerOptions): CallReviewer {
  return async (request) => {
    if ((await options.preferences.get(`${request.channel}:${request.userId}`)) === false) return undefined;
    const attribution = { origin: 'reviewer' as const, sessionKey: request.sessionKey, userId: request.userId, channel: request.channel, chatId: request.target.chatId };
    const verdict = await options.review({ toolName: request.tool.name, risk: request.tool.risk, input: request.input, attribution });
    options.audit.record({
      kind: 'approval-reviewed',
      traceId: request.traceId,
      sessionKey: request.sessionKey,
      userId: request.userId,
      channel: request.channel,
      tool: request.tool.name,
      arguments: request.input,
      outcome: verdict.cause === 'answer' ? verdict.decision : `${verdict.decision}:${verdict.cause}`,
      decidedBy: 'reviewer',
      model: verdict.model,
      reason: verdict.reason,
    });
    const route = options.approvalRouteFor({ channel: request.channel, requesterId: request.userId, origin: request.target, unattended: false });
    const summary = request.tool.describeForApproval?.(request.input, { timezone: options.timezone }) ?? request.tool.name;
    await options.recent.add({
      at: options.now().toISOString(),
      toolName: request.tool.name,
      summary,
      decision: verdict.decision,
      reason: verdict.reason,
      model: verdict.model,
      requesterId: request.userId,
      approvers: route.approvers.length > 0 ? route.approvers : [request.userId],
      approverChannel: route.approvers.length > 0 ? route.approverChannel : request.channel,
    });
    if (options.notice === 'chat' && verdict.decision !== 'escalate') {
      const messages = options.messagesFor(request.channel);
      const text = verdict.decision === 'approve' ? messages.reviewerApproved(verdict.reason) : messages.reviewerDenied(verdict.reason);
      await options.outbox.send({ type: 'reply', target: request.target, text, kind: 'message' });
    }
    return verdict;
  };
}
