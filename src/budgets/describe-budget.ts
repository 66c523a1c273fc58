import type { BudgetWords } from '../i18n/budget-messages.js';
import type { Messages } from '../i18n/messages.js';
import type { BudgetStatus, BudgetUnit, TurnStop } from './budget-check.js';

/** How amounts and times are shown: the currency of the price table and the configured zone. */
export type BudgetDisplay = { readonly currency: string; readonly timezone: string };

const resetFormatters = new Map<string, Intl.DateTimeFormat>();

/** An amount of tokens (grouped digits) or money (with the currency). Pure. */
export function formatAmount(value: number, unit: BudgetUnit, display: BudgetDisplay): string {
  if (unit === 'tokens') return Math.round(value).toLocaleString('en-US');
  return `${value.toFixed(value !== 0 && Math.abs(value) < 0.1 ? 4 : 2)} ${display.currency}`;
}

/** "used of limit unit", in the reader's language. Pure. */
export function formatAmounts(status: Pick<BudgetStatus, 'used' | 'limit' | 'unit'>, messages: Messages, display: BudgetDisplay): string {
  if (status.unit === 'tokens') return messages.budget.amounts(formatAmount(status.used, 'tokens', display), formatAmount(status.limit, 'tokens', display), messages.budget.tokensUnit);
  const digits = (value: number) => value.toFixed(value !== 0 && Math.abs(value) < 0.1 ? 4 : 2);
  return messages.budget.amounts(digits(status.used), digits(status.limit), display.currency);
}

/** When a budget resets: `2026-12-02 00:00 (Europe/Berlin)`, language-neutral. Pure. */
export function formatReset(iso: string, timezone: string): string {
  let formatter = resetFormatters.get(timezone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('sv-SE', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' });
    resetFormatters.set(timezone, formatter);
  }
  return `${formatter.format(new Date(iso))} (${timezone})`;
}

/** The words a budget's sentences need. Pure. */
export function wordsOf(status: Pick<BudgetStatus, 'scope' | 'id' | 'period'>): BudgetWords {
  return { scope: status.scope, id: status.id, period: status.period };
}

/** The one sentence a stopped turn answers with: which limit, the amounts, and when it resets. Pure. */
export function describeStop(stop: TurnStop, messages: Messages, display: BudgetDisplay): string {
  switch (stop.kind) {
    case 'hard':
      return messages.budget.limitReached(wordsOf(stop.status), formatAmounts(stop.status, messages, display), formatReset(stop.status.resetsAt, display.timezone));
    case 'stopped':
      return messages.budget.stoppedUntilReset(wordsOf(stop.status), formatReset(stop.status.resetsAt, display.timezone));
    case 'per-turn':
      return messages.budget.turnCeiling(stop.measure, stop.limit.toLocaleString('en-US'));
  }
}
