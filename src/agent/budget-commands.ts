import type { BudgetPeriod, BudgetScope, BudgetUnit } from '../budgets/budget-check.js';
import type { BudgetControl } from '../budgets/create-budget-control.js';
import { type BudgetDisplay, formatAmount, formatAmounts, formatReset, wordsOf } from '../budgets/describe-budget.js';
import type { UsageRow } from '../budgets/create-usage-ledger.js';
import { totalTokens, type UsageTotals } from '../budgets/usage-totals.js';
import type { MessageReceived } from '../events/inbound-event.js';
import type { Messages } from '../i18n/messages.js';
import type { TurnDelivery, TurnGovernance, TurnSettings } from './runtime-dependencies.js';

const listedPerGroup = 10;

/** True when the sender is one of the configured approvers of this chat's channel (not merely the requester). */
export function isApprover(deps: TurnSettings & TurnDelivery & TurnGovernance, event: MessageReceived): boolean {
  const target = { channel: event.channel, chatId: event.chatId };
  const route = deps.approvalRouteFor({ channel: event.channel, requesterId: event.sender.id, origin: target, unattended: false });
  return route.approverChannel === event.channel && route.approvers.includes(event.sender.id);
}

function usageLine(totals: UsageTotals, messages: Messages, display: BudgetDisplay): string {
  const priced = totals.calls > totals.unpricedCalls;
  return messages.budget.usageLine(formatAmount(totalTokens(totals), 'tokens', display), priced ? formatAmount(totals.cost, 'cost', display) : undefined, String(totals.calls));
}

function topRows(rows: readonly UsageRow[], dimensions: readonly string[], messages: Messages, display: BudgetDisplay): string[] {
  const listed = rows
    .filter((row) => dimensions.includes(row.dimension))
    .sort((left, right) => totalTokens(right.totals) - totalTokens(left.totals))
    .slice(0, listedPerGroup)
    .map((row) => `• ${row.dimension} ${row.id}: ${usageLine(row.totals, messages, display)}`);
  return listed.length > 0 ? listed : [messages.budget.nothingYet];
}

/** `/usage`: this chat today and this month, its budgets; approvers also see everyone and the top scheduled jobs. */
export async function usageText(deps: TurnSettings & TurnDelivery & TurnGovernance, control: BudgetControl, event: MessageReceived): Promise<string> {
  const messages = deps.messagesFor(event.channel);
  const display = { currency: control.currency, timezone: deps.timezone };
  const { day, month } = control.ledger.periods();
  const chat = `${event.channel}:${event.billedTo ?? event.chatId}`;
  const today = await control.ledger.totals({ period: day, dimension: 'chat', id: chat });
  const thisMonth = await control.ledger.totals({ period: month, dimension: 'chat', id: chat });
  const lines = [messages.budget.usageTitle(chat), `${messages.budget.today}: ${usageLine(today, messages, display)}`, `${messages.budget.thisMonth}: ${usageLine(thisMonth, messages, display)}`];
  if (thisMonth.unpricedCalls > 0) lines.push(messages.budget.unpriced(String(thisMonth.unpricedCalls)));
  lines.push('', ...(await budgetLines(deps, control, event)));
  if (isApprover(deps, event)) {
    const todayRows = await control.ledger.list(day);
    const monthRows = await control.ledger.list(month);
    lines.push('', messages.budget.everyone(messages.budget.today), ...topRows(todayRows, ['user', 'job'], messages, display));
    lines.push('', messages.budget.everyone(messages.budget.thisMonth), ...topRows(monthRows, ['user', 'job'], messages, display));
    lines.push('', messages.budget.topJobs, ...topRows(monthRows, ['job'], messages, display));
  }
  return lines.join('\n');
}

async function budgetLines(deps: TurnSettings & TurnDelivery & TurnGovernance, control: BudgetControl, event: MessageReceived): Promise<string[]> {
  const messages = deps.messagesFor(event.channel);
  const display = { currency: control.currency, timezone: deps.timezone };
  // A billed client (a webhook's) sees its own budgets, not those of the ids it sent.
  const statuses = await control.statuses({ origin: 'user', sessionKey: event.sessionKey, channel: event.channel, chatId: event.billedTo ?? event.chatId, userId: event.billedTo ?? event.sender.id });
  if (statuses.length === 0) return [messages.budget.noBudgets];
  return [messages.budget.budgetsHeader, ...statuses.map((status) => messages.budget.budgetLine(wordsOf(status), formatAmounts(status, messages, display), formatReset(status.resetsAt, deps.timezone)))];
}

const scopeNames: readonly string[] = ['chat', 'user', 'job', 'global'];
const periodNames: readonly string[] = ['daily', 'monthly'];
const unitNames: readonly string[] = ['tokens', 'cost'];

/** `/budget` lists this chat's budgets; `/budget raise <scope> <period> <unit> <limit>` raises one until it resets (approvers only, audited). */
export async function budgetCommand(deps: TurnSettings & TurnDelivery & TurnGovernance, control: BudgetControl, event: MessageReceived, args: readonly string[]): Promise<string> {
  const messages = deps.messagesFor(event.channel);
  const [action, scopeText = '', period = '', unit = '', limitText = ''] = args;
  if (action === undefined) return (await budgetLines(deps, control, event)).join('\n');
  const [scope = '', named] = scopeText.split(':', 2) as [string, string | undefined];
  const limit = Number(limitText);
  if (action !== 'raise' || !scopeNames.includes(scope) || !periodNames.includes(period) || !unitNames.includes(unit) || !Number.isFinite(limit) || limit <= 0) return messages.budget.budgetUsage;
  if (!isApprover(deps, event)) return messages.budget.budgetOnlyApprovers;
  const ids: Record<string, string | undefined> = {
    chat: `${event.channel}:${event.chatId}`,
    user: `${event.channel}:${named ?? event.sender.id}`,
    job: named,
    global: 'all',
  };
  const id = ids[scope];
  if (id === undefined) return messages.budget.budgetUsage;
  const words = { scope: scope as BudgetScope, id, period: period as BudgetPeriod };
  const found = control.find({ ...words, unit: unit as BudgetUnit });
  if (!found) return messages.budget.budgetNotConfigured(words, unit);
  await control.raise({ ref: found.ref, limit, by: event.sender.displayName, byId: event.sender.id, channel: event.channel });
  const shown = formatAmount(limit, unit as BudgetUnit, { currency: control.currency, timezone: deps.timezone });
  return messages.budget.budgetRaised(words, unit === 'tokens' ? `${shown} ${messages.budget.tokensUnit}` : shown, formatReset(found.resetsAt, deps.timezone));
}
