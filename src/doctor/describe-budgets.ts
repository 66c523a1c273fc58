import type { Config } from '../config/config-schema.js';
import { type DoctorLine, doctorLine } from './doctor-line.js';

const scopes = ['chat', 'user', 'job', 'global'] as const;
const periods = ['daily', 'monthly'] as const;

/** The configured budgets in one line, and a warning when cost budgets meet a model without a price. Pure. */
export function describeBudgets(config: Config): DoctorLine[] {
  const { budgets, prices } = config;
  const limits = scopes.flatMap((scope) =>
    periods.flatMap((period) => {
      const amount = budgets[scope]?.[period];
      if (!amount) return [];
      const parts = [amount.tokens === undefined ? undefined : `${amount.tokens.toLocaleString('en-US')} tokens`, amount.cost === undefined ? undefined : `${amount.cost} ${budgets.currency}`].filter((part) => part !== undefined);
      return [`${scope} ${period} ${parts.join(' and ')}`];
    }),
  );
  const perTurn = [budgets.perTurn?.tokens === undefined ? undefined : `${budgets.perTurn.tokens.toLocaleString('en-US')} tokens`, budgets.perTurn?.modelCalls === undefined ? undefined : `${budgets.perTurn.modelCalls} model calls`].filter((part) => part !== undefined);
  if (limits.length === 0 && perTurn.length === 0) {
    return [doctorLine('off', 'budgets', 'none: model spend is counted (/usage, npm run usage) but not limited; config/examples/budgets.yaml is a cautious start')];
  }
  const lines = [doctorLine('ok', 'budgets', [...limits, ...(perTurn.length > 0 ? [`per turn ${perTurn.join(' and ')}`] : []), `card at ${Math.round(budgets.softLimit * 100)} %`].join(' · '))];
  const hasCostBudget = scopes.some((scope) => periods.some((period) => budgets[scope]?.[period]?.cost !== undefined));
  const unpriced = [config.model.primary, config.model.fallback, config.approvals.reviewerModel].flatMap((endpoint) => (endpoint && prices[endpoint.name] === undefined ? [endpoint.name] : []));
  if (hasCostBudget && unpriced.length > 0) {
    lines.push(doctorLine('warn', 'budgets', `cost budgets are set, but ${[...new Set(unpriced)].join(', ')} has no entry in prices: its calls count tokens only and cost budgets do not see them`));
  }
  return lines;
}
