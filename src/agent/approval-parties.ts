import type { ApprovalRequestInput } from '../approvals/approvals-service.js';
import type { ApprovalCard } from '../events/approval-card.js';
import type { Target } from '../events/target.js';
import type { TurnDelivery, TurnGovernance, TurnState } from './runtime-dependencies.js';
import type { TurnScope } from './turn-scope.js';

/** What every suspended turn records about the turn it stopped. Pure. */
export function suspensionBase(scope: TurnScope, id: string, createdAt: Date) {
  return {
    id,
    sessionKey: scope.sessionKey,
    traceId: scope.traceId,
    target: scope.target,
    origin: scope.origin,
    unattended: scope.unattended,
    isGroup: scope.isGroup,
    userId: scope.userId,
    userName: scope.userName,
    ...(scope.jobId === undefined ? {} : { jobId: scope.jobId }),
    ...(scope.billedTo === undefined ? {} : { billedTo: scope.billedTo }),
    ...(scope.toolScope === undefined ? {} : { toolScope: scope.toolScope }),
    ...(scope.replyPrefix === undefined ? {} : { replyPrefix: scope.replyPrefix }),
    ...(scope.allowedTools === undefined ? {} : { allowedTools: scope.allowedTools }),
    ...(scope.delegationChain === undefined ? {} : { delegationChain: scope.delegationChain }),
    ...(scope.subTask === undefined ? {} : { subTask: scope.subTask }),
    causationId: scope.causationId,
    createdAt: createdAt.toISOString(),
  };
}

/** Who asks, who decides (the channel's approvers, or the requester alone) and where the cards go, for an approval raised in this turn. */
export function approvalParties(deps: TurnState & TurnDelivery & TurnGovernance, scope: TurnScope): { readonly record: Pick<ApprovalRequestInput, 'requester' | 'approvers' | 'approverChannel' | 'channel' | 'sessionKey' | 'origin'>; readonly targets: readonly Target[] } {
  const route = deps.approvalRouteFor({ channel: scope.channel, requesterId: scope.userId, origin: scope.target, unattended: scope.unattended });
  return {
    record: {
      requester: { id: scope.userId, displayName: scope.userName },
      approvers: route.approvers.length > 0 ? route.approvers : [scope.userId],
      approverChannel: route.approvers.length > 0 ? route.approverChannel : scope.channel,
      channel: scope.channel,
      sessionKey: scope.sessionKey,
      origin: scope.target,
    },
    targets: route.targets.length > 0 ? route.targets : [scope.target],
  };
}

/** Shows the card in every target and attaches each delivered one to its approval, so decisions can edit it. */
export async function deliverApprovalCard(deps: TurnState & TurnDelivery & TurnGovernance, scope: Pick<TurnScope, 'causationId' | 'traceId'>, targets: readonly Target[], card: ApprovalCard): Promise<void> {
  for (const target of targets) {
    const delivery = await deps.outbox.send({ type: 'approval-requested', target, approval: card, causationId: scope.causationId });
    if (delivery.ok) await deps.approvals.attachCard(card.approvalId, { target, messageId: delivery.messageId, explanation: card.explanation });
    else deps.logger.warn({ traceId: scope.traceId, approvalId: card.approvalId, error: delivery.error, target }, 'approval card was not delivered');
  }
}
