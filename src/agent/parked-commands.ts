import { formatReset } from '../budgets/describe-budget.js';
import type { InboundEvent, MessageReceived } from '../events/inbound-event.js';
import type { ParkedLine } from '../i18n/parked-messages.js';
import type { TurnParking } from '../journal/create-turn-parking.js';
import type { ParkedTurn } from '../journal/parked-turns.js';
import { isApprover } from './budget-commands.js';
import type { TurnDelivery, TurnGovernance, TurnSettings } from './runtime-dependencies.js';

const previewChars = 80;

/** What a parked event was, in a few words: the start of its text, or the button or job it came from. */
function previewOf(event: InboundEvent): string {
  switch (event.type) {
    case 'message-received': {
      const text = event.text.replace(/\s+/g, ' ').trim();
      const shown = text.length > previewChars ? `${text.slice(0, previewChars)}…` : text;
      const files = event.media.length > 0 ? ` [+${event.media.map((item) => item.fileName ?? item.kind).join(', ')}]` : '';
      return `"${shown}"${files}`;
    }
    case 'action-clicked':
      return `${event.action} ${event.actionId}: ${event.choice}`;
    case 'schedule-fired':
      return `job ${event.jobId}`;
    case 'hook-received':
      return `hook ${event.hookName} delivery ${event.deliveryId}`;
    case 'turn-resumed':
      return `resumption ${event.suspensionId}`;
    case 'sub-task-started':
      return `sub-task ${event.subTaskId}`;
  }
}

/** A parked turn as the messages show it. Pure. */
export function toParkedLine(turn: ParkedTurn, timezone: string): ParkedLine {
  const { event } = turn;
  const from = event.type === 'message-received' || event.type === 'action-clicked' ? event.sender.displayName : event.type === 'schedule-fired' ? `schedule ${event.jobId}` : event.type === 'hook-received' ? `hook ${event.hookName}` : event.origin;
  return { id: turn.id, parkedAt: formatReset(turn.parkedAt, timezone), chat: `${event.channel}:${event.chatId}`, from, attempts: turn.attempts, preview: previewOf(event) };
}

/** `/parked` lists parked turns; `/parked show|retry|drop <id>`. Approvers of this channel only; retries and drops are audited. */
export async function parkedCommand(deps: TurnSettings & TurnDelivery & TurnGovernance, parking: TurnParking, event: MessageReceived, args: readonly string[]): Promise<string> {
  const messages = deps.messagesFor(event.channel).parked;
  if (!isApprover(deps, event)) return messages.onlyApprovers;
  const [action, id] = args;
  const by = `${event.channel}:${event.sender.id}`;
  if (action === undefined || action === 'list') {
    const turns = await parking.list();
    if (turns.length === 0) return messages.none;
    return [messages.listHeader(turns.length), ...turns.map((turn) => messages.line(toParkedLine(turn, deps.timezone)))].join('\n');
  }
  if (id === undefined || !['show', 'retry', 'drop'].includes(action)) return messages.usage;
  if (action === 'show') {
    const turn = await parking.get(id);
    return turn ? messages.details(toParkedLine(turn, deps.timezone), turn.reason) : messages.notFound(id);
  }
  const done = action === 'retry' ? await parking.retry(id, by) : await parking.drop(id, by);
  if (!done) return messages.notFound(id);
  return action === 'retry' ? messages.retried(id) : messages.dropped(id);
}
