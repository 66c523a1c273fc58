import type { ApprovalChoice } from '../events/approval-card.js';
import type { MessageReceived } from '../events/inbound-event.js';
import { decideApproval } from './decide-approval.js';
import { answerQuestion } from './answer-question.js';
import type { TurnDelivery, TurnGovernance, TurnSettings, TurnState } from './runtime-dependencies.js';
import { listReviewerDecisions } from '../reviewer/list-reviewer-decisions.js';
import { switchSmartApprovals } from '../reviewer/switch-smart-approvals.js';
import { budgetCommand, usageText } from './budget-commands.js';
import { parkedCommand } from './parked-commands.js';
import { forgetText, memoryCommand } from './memory-commands.js';
import { linkCommand } from './link-command.js';
import type { ReplyButton } from '../events/outbound-event.js';

const commandPattern = /^\/([a-z_]+)(?:@[A-Za-z0-9_]+)?(?:\s+([\s\S]*))?$/;
const scopes: Record<string, ApprovalChoice> = { once: 'once', session: 'session', always: 'always' };

/** Recognises `/command args`; a path like `/etc/hosts is odd` is not a command. */
export function parseCommand(text: string): { readonly name: string; readonly args: readonly string[] } | undefined {
  const match = commandPattern.exec(text.trim());
  if (!match) return undefined;
  return { name: match[1] ?? '', args: (match[2] ?? '').split(/\s+/).filter((part) => part.length > 0) };
}

/** Handles the chat commands every channel shares. Returns false when the text is not a known command. */
export async function handleCommand(deps: TurnSettings & TurnState & TurnDelivery & TurnGovernance, event: MessageReceived): Promise<boolean> {
  const command = parseCommand(event.text);
  if (!command) return false;
  const messages = deps.messagesFor(event.channel);
  const target = { channel: event.channel, chatId: event.chatId, threadId: event.threadId, replyToMessageId: event.messageId };
  const reply = async (text: string, buttons?: readonly ReplyButton[]) => {
    const delivery = await deps.outbox.send({ type: 'reply', target, text, kind: 'final', causationId: event.id, ...(buttons === undefined || buttons.length === 0 ? {} : { buttons }) });
    // A command's answer ends its turn too: webhook waits and metrics hear about it like any other.
    deps.turnFinished({ causationId: event.id, sessionKey: event.sessionKey, status: 'completed', text, delivery });
    return delivery;
  };
  const [first, ...rest] = command.args;

  switch (command.name) {
    case 'start':
      await reply(messages.greeting(deps.botName));
      return true;
    case 'help':
      await reply(messages.help(deps.botName));
      return true;
    case 'new':
    case 'reset':
      await deps.history.reset(event.sessionKey);
      await deps.approvals.grants.clearSession(event.sessionKey);
      await reply(messages.sessionReset);
      return true;
    case 'approve': {
      const choice = rest[0] === undefined ? 'once' : scopes[rest[0]];
      if (first === undefined || choice === undefined) {
        await reply(messages.usageApprove);
        return true;
      }
      await decideApproval(deps, { approvalId: first, choice, deciderId: event.sender.id, deciderName: event.sender.displayName, replyTarget: target });
      return true;
    }
    case 'deny':
      if (first === undefined) {
        await reply(messages.usageDeny);
        return true;
      }
      await decideApproval(deps, { approvalId: first, choice: 'deny', deciderId: event.sender.id, deciderName: event.sender.displayName, reason: rest.join(' ') || undefined, replyTarget: target });
      return true;
    case 'approvals':
      await reply(await approvalsText(deps, event, first === 'revoke' ? Number(rest[0]) : undefined));
      return true;
    case 'smart':
      await reply(await switchSmartApprovals(deps, event, first));
      return true;
    case 'usage':
      if (deps.budgets) await reply(await usageText(deps, deps.budgets, event));
      else await reply(messages.unknownCommand('/usage'));
      return true;
    case 'budget':
      if (deps.budgets) await reply(await budgetCommand(deps, deps.budgets, event, command.args));
      else await reply(messages.unknownCommand('/budget'));
      return true;
    case 'memory':
    case 'forget':
    case 'link': {
      if (deps.memory === undefined) {
        await reply(messages.memory.off);
        return true;
      }
      const memory = deps.memory;
      const memoryDeps = { facts: memory.facts, exchanges: memory.exchanges, audit: memory.audit, approvalRouteFor: deps.approvalRouteFor, messages, listings: memory.listings };
      if (command.name === 'memory') {
        const answer = await memoryCommand(memoryDeps, event, command.args);
        await reply(answer.text, deps.numberedChannels?.has(event.channel) ? undefined : answer.buttons);
      } else if (command.name === 'forget') await reply(await forgetText(memoryDeps, event, command.args));
      else await reply(await linkCommand({ ...memory, messages, now: deps.now }, event, command.args));
      return true;
    }
    case 'parked':
      if (deps.parkedTurns) await reply(await parkedCommand(deps, deps.parkedTurns, event, command.args));
      else await reply(messages.unknownCommand('/parked'));
      return true;
    case 'console':
      await reply(await consoleLinkText(deps, event));
      return true;
    case 'cancel': {
      const questionId = await deps.openQuestions.get(event.sessionKey);
      if (questionId) {
        await answerQuestion(deps, { questionId, answer: '(the person cancelled the question)', cancelled: true, answeredById: event.sender.id, answeredByName: event.sender.displayName, replyTarget: target, silent: true });
        await reply(messages.cancelled);
      } else {
        await reply(messages.nothingToCancel);
      }
      return true;
    }
    default:
      await reply(messages.unknownCommand(`/${command.name}`));
      return true;
  }
}

async function approvalsText(deps: TurnSettings & TurnState & TurnDelivery & TurnGovernance, event: MessageReceived, revokeNumber: number | undefined): Promise<string> {
  const messages = deps.messagesFor(event.channel);
  const userKey = `${event.channel}:${event.sender.id}`;
  if (revokeNumber !== undefined) {
    if (!Number.isInteger(revokeNumber) || revokeNumber < 1) return messages.grantNotFound(revokeNumber);
    const removed = await deps.approvals.grants.revokeAlways(userKey, revokeNumber);
    return removed ? messages.grantRevoked(removed.summary) : messages.grantNotFound(revokeNumber);
  }
  const pending = await deps.approvals.listDecidableBy(event.sender.id, event.channel);
  const grants = await deps.approvals.grants.listAlways(userKey);
  const lines: string[] = [];
  if (pending.length === 0) lines.push(messages.noPendingApprovals);
  else {
    lines.push(messages.pendingApprovalsHeader);
    for (const approval of pending) lines.push(`• ${approval.id} — ${approval.summary} (${approval.requester.displayName}) → /approve ${approval.id} · /deny ${approval.id}`);
  }
  if (grants.length > 0) {
    lines.push('', messages.grantsHeader);
    for (const [index, grant] of grants.entries()) lines.push(`${index + 1}. ${grant.toolName}: ${grant.summary}`);
  }
  lines.push(...(await listReviewerDecisions(deps, { userId: event.sender.id, channel: event.channel })));
  return lines.join('\n');
}

/** `/console`: a one-time link in a private chat; in a group others would see (and could open) it first. */
async function consoleLinkText(deps: TurnSettings & TurnDelivery & TurnGovernance, event: MessageReceived): Promise<string> {
  const messages = deps.messagesFor(event.channel).console;
  if (deps.consoleLinks === undefined) return messages.off;
  if (event.isGroup) return messages.privateOnly;
  const issued = await deps.consoleLinks({ channel: event.channel, userId: event.sender.id, displayName: event.sender.displayName }).catch(() => ({ ok: false as const, reason: 'not-saved' as const }));
  if (issued.ok) return messages.link(issued.url, issued.minutes);
  return issued.reason === 'no-gateway' ? messages.noGateway : messages.notIssued;
}
