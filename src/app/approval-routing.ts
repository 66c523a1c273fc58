import type { ApprovalRouteFor } from '../approvals/approval-route.js';
import type { Config } from '../config/config-schema.js';
import type { ApprovalSurface } from '../channel/channel-adapter.js';

/** The approval surfaces of the running channels, by channel name, in the order the channels were listed. */
export type ActiveSurfaces = () => ReadonlyMap<string, ApprovalSurface>;

/**
 * Where a card goes and who decides it:
 * - a channel where people decide cards, with `route: origin`: the chat it came from; its approvers (or the requester alone);
 * - `route: approvers`: each approver's private chat, where the channel reaches people by user id;
 * - an unattended or machine origin (webhook, schedule): the first running channel whose approvers it can reach.
 */
export function createApprovalRouting(config: Config, surfaces: ActiveSurfaces): ApprovalRouteFor {
  return (input) => {
    const own = surfaces().get(input.channel);
    const ownApprovers = own?.approvers ?? [];
    if (own && config.approvals.route === 'origin' && !input.unattended) return { approvers: ownApprovers, approverChannel: input.channel, targets: [input.origin] };
    if (own && ownApprovers.length > 0) {
      const targets = own.reachesApproversByUserId ? ownApprovers.map((id) => ({ channel: input.channel, chatId: id })) : [input.origin];
      return { approvers: ownApprovers, approverChannel: input.channel, targets };
    }
    for (const [channel, surface] of surfaces()) {
      if (surface.reachesApproversByUserId && surface.approvers.length > 0) {
        return { approvers: surface.approvers, approverChannel: channel, targets: surface.approvers.map((id) => ({ channel, chatId: id })) };
      }
    }
    return { approvers: ownApprovers, approverChannel: input.channel, targets: [input.origin] };
  };
}

/** True when an unattended turn can reach a person who may approve. */
export function canAskWhenUnattended(config: Config, surfaces: ActiveSurfaces): (channel: string) => boolean {
  return () => config.approvals.route === 'approvers' && [...surfaces().values()].some((surface) => surface.reachesApproversByUserId && surface.approvers.length > 0);
}
