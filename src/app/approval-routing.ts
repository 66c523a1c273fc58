import type { ApprovalRoute } from '../agent/runtime-dependencies.js';
import type { Config } from '../config/config-schema.js';
import type { Target } from '../events/target.js';

/** Channels where people press buttons or type numbers; turns from elsewhere route cards to one of these. */
const chatChannels = ['telegram', 'wechat', 'cli'] as const;

/** Configured approvers of a channel; the terminal's one local user approves there. */
export function approversOf(config: Config, channel: string): readonly string[] {
  switch (channel) {
    case 'telegram':
      return config.channels.telegram.approvers;
    case 'wechat':
      return config.channels.wechat.approvers;
    case 'cli':
      return ['local'];
    default:
      return [];
  }
}

/**
 * Where a card goes and who decides it:
 * - a chat channel with `route: origin`: the chat it came from; its approvers (or the requester alone);
 * - `route: approvers`: each approver's private chat (a Telegram private chat id is the user id);
 * - an unattended or non-chat origin (webhook, schedule into a webhook): the first chat channel with approvers.
 */
export function createApprovalRouting(config: Config, activeChannels: () => ReadonlySet<string>) {
  return (input: { readonly channel: string; readonly requesterId: string; readonly origin: Target; readonly unattended: boolean }): ApprovalRoute => {
    const isChat = (chatChannels as readonly string[]).includes(input.channel);
    const ownApprovers = approversOf(config, input.channel);
    if (isChat && config.approvals.route === 'origin' && !input.unattended) return { approvers: ownApprovers, approverChannel: input.channel, targets: [input.origin] };
    if (isChat && ownApprovers.length > 0) {
      return { approvers: ownApprovers, approverChannel: input.channel, targets: ownApprovers.map((id) => ({ channel: input.channel, chatId: id })) };
    }
    for (const channel of chatChannels) {
      const approvers = approversOf(config, channel);
      if (channel !== 'cli' && approvers.length > 0 && activeChannels().has(channel)) {
        return { approvers, approverChannel: channel, targets: approvers.map((id) => ({ channel, chatId: id })) };
      }
    }
    return { approvers: ownApprovers, approverChannel: input.channel, targets: [input.origin] };
  };
}

/** True when an unattended turn from this channel can reach a person who may approve. */
export function canAskWhenUnattended(config: Config, activeChannels: () => ReadonlySet<string>): (channel: string) => boolean {
  return () =>
    config.approvals.route === 'approvers' && chatChannels.some((channel) => channel !== 'cli' && activeChannels().has(channel) && approversOf(config, channel).length > 0);
}
