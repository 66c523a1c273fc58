import type { BudgetsConfig } from '../config/config-schema.js';
import type { UsageRow } from '../budgets/create-usage-ledger.js';
import { totalTokens, type UsageTotals } from '../budgets/usage-totals.js';
import type { ConsoleStrings } from './console-strings.js';
import type { ConsoleViewer } from './console-viewer.js';
import { escapeHtml } from './escape-html.js';
import { renderBar } from './render-bar.js';

/** The usage page's figures: the global tokens of each recent day, and this month's counters. */
export type UsageFigures = {
  readonly days: readonly { readonly day: string; readonly totals: UsageTotals }[];
  readonly month: readonly UsageRow[];
};

const formatTokens = (value: number) => (value >= 10_000 ? `${(value / 1000).toFixed(0)}k` : String(value));

/** The usage page body: tokens per day with the global daily budget drawn, then this month per person, chat and job against their budgets. */
export function renderUsagePage(input: { readonly strings: ConsoleStrings; readonly viewer: ConsoleViewer; readonly figures: UsageFigures; readonly budgets: BudgetsConfig }): string {
  const { strings, viewer, budgets } = input;
  const words = strings.usage;
  const own = (row: UsageRow) => viewer.isApprover || ((row.dimension === 'user' || row.dimension === 'chat') && row.id === `${viewer.person.channel}:${viewer.person.userId}`);
  const sections: string[] = [];
  if (viewer.isApprover) {
    const scale = Math.max(...input.figures.days.map((day) => totalTokens(day.totals)), 1);
    const limit = budgets.global?.daily?.tokens;
    sections.push(
      `<h2>${escapeHtml(words.perDay)}</h2><div class="card">${input.figures.days
        .map((day) => renderBar({ label: day.day.slice(4), value: totalTokens(day.totals), scale, limit, softLimit: budgets.softLimit, text: `${formatTokens(totalTokens(day.totals))}${day.totals.cost > 0 ? ` · ${day.totals.cost.toFixed(2)} ${budgets.currency}` : ''}` }))
        .join('')}${limit === undefined ? '' : `<p class="legend">${escapeHtml(words.limit)}: ${limit} ${escapeHtml(words.tokens)}</p>`}</div>`,
    );
  }
  const dimensionSection = (dimension: 'user' | 'chat' | 'job', title: string) => {
    const rows = input.figures.month.filter((row) => row.dimension === dimension && own(row)).sort((left, right) => totalTokens(right.totals) - totalTokens(left.totals));
    if (rows.length === 0) return '';
    const scale = Math.max(...rows.map((row) => totalTokens(row.totals)), 1);
    const limit = budgets[dimension]?.monthly?.tokens;
    return `<h2>${escapeHtml(title)}</h2><div class="card">${rows
      .slice(0, 30)
      .map((row) => renderBar({ label: row.id, value: totalTokens(row.totals), scale, limit, softLimit: budgets.softLimit, text: `${formatTokens(totalTokens(row.totals))} · ${row.totals.calls} ${words.calls}` }))
      .join('')}</div>`;
  };
  sections.push(dimensionSection('user', words.byUser), dimensionSection('chat', words.byChat), viewer.isApprover ? dimensionSection('job', words.byJob) : '');
  const body = sections.join('');
  return input.figures.month.length === 0 ? `${body}<p class="muted">${escapeHtml(words.none)}</p>` : body;
}
