import { type BudgetControl, createBudgetControl } from '../budgets/create-budget-control.js';
import { createMeteredModel } from '../budgets/create-metered-model.js';
import { createUsageLedger } from '../budgets/create-usage-ledger.js';
import type { BudgetState } from '../budgets/budget-check.js';
import { createPeriodClock } from '../budgets/usage-period.js';
import type { UsageTotals } from '../budgets/usage-totals.js';
import type { Config } from '../config/config-schema.js';
import type { Logger } from '../logging/create-logger.js';
import type { ModelPort } from '../model/model-port.js';
import type { AuditLog } from '../registry/audit-log.js';
import type { Store } from '../store/key-value-namespace.js';
import type { Telemetry } from '../telemetry/telemetry.js';

/** Accounting and budgets as wired: `meter` wraps every model the runtime calls; `control` goes to the runtime. */
export type Budgets = {
  readonly control: BudgetControl;
  meter(model: ModelPort): ModelPort;
};

/** Builds the usage ledger (namespace `usage`), budget control (namespace `budget-state`) and the model meter from config. */
export function createBudgets(options: { readonly config: Config; readonly store: Store; readonly telemetry: Telemetry; readonly audit: Pick<AuditLog, 'record'>; readonly logger: Logger; readonly now: () => Date }): Budgets {
  const { config } = options;
  const ledger = createUsageLedger({
    counters: options.store.namespace<UsageTotals>('usage'),
    prices: config.prices,
    flushDelayMs: 1000,
    periods: createPeriodClock({ timezone: config.agent.timezone, now: options.now }),
    onWriteFailed: (error) => options.logger.warn({ err: error }, 'usage counters could not be written; they are kept and retried'),
  });
  const control = createBudgetControl({ config: config.budgets, ledger, states: options.store.namespace<BudgetState>('budget-state'), audit: options.audit });
  return {
    control,
    meter: (model) =>
      createMeteredModel(model, (call) => {
        const { cost } = ledger.record(call);
        options.telemetry.emitModelUsage({
          model: call.model,
          channel: call.attribution.channel,
          origin: call.attribution.origin,
          inputTokens: call.usage?.inputTokens ?? 0,
          cachedInputTokens: call.usage?.cachedInputTokens ?? 0,
          outputTokens: call.usage?.outputTokens ?? 0,
          ...(cost === undefined ? {} : { cost }),
        });
      }),
  };
}
