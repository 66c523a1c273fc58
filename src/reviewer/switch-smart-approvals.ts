import type { MessageReceived } from '../events/inbound-event.js';
import type { SmartApprovalCommandPorts } from './smart-approvals.js';

/**
 * `/smart on|off`: an approver chooses the reviewer for their own chats (stored per person), within what the
 * config allows: only when `approvals.mode` is `smart`, so the switch can narrow the reviewer's reach, never widen it.
 */
export async function switchSmartApprovals(deps: SmartApprovalCommandPorts, event: MessageReceived, argument: string | undefined): Promise<string> {
  const messages = deps.messagesFor(event.channel);
  const smart = deps.smartApprovals;
  if (smart?.mode !== 'smart') return messages.smartNotAllowed(smart?.mode ?? 'manual');
  const target = { channel: event.channel, chatId: event.chatId };
  const route = deps.approvalRouteFor({ channel: event.channel, requesterId: event.sender.id, origin: target, unattended: false });
  const isApprover = route.approvers.length === 0 || (route.approverChannel === event.channel && route.approvers.includes(event.sender.id));
  if (!isApprover) return messages.smartOnlyApprovers;
  const userKey = `${event.channel}:${event.sender.id}`;
  if (argument !== 'on' && argument !== 'off') return messages.usageSmart((await smart.preferences.get(userKey)) ?? true);
  await smart.preferences.set(userKey, argument === 'on', deps.now());
  return messages.smartSwitched(argument === 'on');
}
