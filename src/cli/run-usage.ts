import { createUsageLedger, type UsageRow } from '../budgets/create-usage-ledger.js';
import { formatAmount } from '../budgets/describe-budget.js';
import { createPeriodClock } from '../budgets/usage-period.js';
import { totalTokens, type UsageTotals } from '../budgets/usage-totals.js';
import { loadConfig } from '../config/load-config.js';
import { createStore } from '../store/create-store.js';
import type { ParsedArguments } from '../app/parse-arguments.js';

import { channelConfigSections } from '../app/builtin-channels.js';

type Output = { readonly write: (text: string) => void };

const dimensionOrder = ['global', 'chat', 'user', 'job', 'model', 'origin'];

/** The rows of one period as a table: dimension, id, calls, tokens by kind, cost. Pure. */
export function formatUsageTable(title: string, rows: readonly UsageRow[], display: { readonly currency: string; readonly timezone: string }): string {
  const header = ['dimension', 'id', 'calls', 'input', 'cached', 'output', 'total', 'cost'];
  const sorted = [...rows].sort((left, right) => dimensionOrder.indexOf(left.dimension) - dimensionOrder.indexOf(right.dimension) || totalTokens(right.totals) - totalTokens(left.totals));
  const cells = (totals: UsageTotals) => [totals.calls, totals.inputTokens, totals.cachedInputTokens, totals.outputTokens, totalTokens(totals)].map((value) => value.toLocaleString('en-US'));
  const cost = (totals: UsageTotals) => (totals.calls === totals.unpricedCalls ? 'unpriced' : `${formatAmount(totals.cost, 'cost', display)}${totals.unpricedCalls > 0 ? ` (+${totals.unpricedCalls} unpriced)` : ''}`);
  const table = [header, ...sorted.map((row) => [row.dimension, row.id, ...cells(row.totals), cost(row.totals)])];
  const widths = header.map((_, column) => Math.max(...table.map((line) => (line[column] ?? '').length)));
  const lines = table.map((line) => line.map((cell, column) => (column < 2 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  ').trimEnd());
  return `${title}\n${rows.length === 0 ? '  (no model calls)' : lines.join('\n')}\n`;
}

/** `npm run usage [-- --day YYYY-MM-DD] [-- --month YYYY-MM]`: today's and this month's counters from the store (agent.timezone). Needs no model key. */
export async function runUsage(parsed: ParsedArguments, output: Output = process.stdout, errors: Output = process.stderr): Promise<number> {
  const loaded = loadConfig({ configFile: parsed.configFile, channels: channelConfigSections() });
  if (!loaded.ok) {
    errors.write(`The configuration is not valid:\n${loaded.errors.map((line) => `  - ${line}`).join('\n')}\n`);
    return 2;
  }
  const { config } = loaded;
  const day = parsed.values.get('day');
  const month = parsed.values.get('month');
  if ((day !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(day)) || (month !== undefined && !/^\d{4}-\d{2}$/.test(month))) {
    errors.write('Usage: npm run usage [-- --day YYYY-MM-DD] [-- --month YYYY-MM]\n');
    return 2;
  }
  const store = await createStore({ url: config.storage.url, dataDir: config.storage.dataDir });
  try {
    const periods = createPeriodClock({ timezone: config.agent.timezone, now: () => new Date() });
    const ledger = createUsageLedger({ counters: store.namespace<UsageTotals>('usage'), prices: config.prices, periods });
    const current = periods();
    const display = { currency: config.budgets.currency, timezone: config.agent.timezone };
    const dayKey = day === undefined ? current.day : `day:${day}`;
    const monthKey = month === undefined ? current.month : `month:${month}`;
    output.write(formatUsageTable(`${dayKey.slice(4)} (${config.agent.timezone})`, await ledger.list(dayKey), display));
    output.write(`\n${formatUsageTable(`${monthKey.slice(6)} (${config.agent.timezone})`, await ledger.list(monthKey), display)}`);
    return 0;
  } finally {
    await store.close();
  }
}
