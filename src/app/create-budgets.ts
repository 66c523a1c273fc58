import type { BudgetHolds } from '../budgets/budget-holds.js';
import type { BudgetState } from '../budgets/budget-check.js';
import { type BudgetControl, createBudgetControl, hasBudgets } from '../budgets/create-budget-control.js';
import { createMemoryBudgetHolds } from '../budgets/create-memory-budget-holds.js';
import { createMeteredModel, type MeteredCall } from '../budgets/create-metered-model.js';
import { createUsageLedger } from '../budgets/create-usage-ledger.js';
import { describeStop } from '../budgets/describe-budget.js';
import { createPeriodClock } from '../budgets/usage-period.js';
import type { UsageTotals } from '../budgets/usage-totals.js';
import type { Config } from '../config/config-schema.js';
import { hookSubject } from '../events/hook-subject.js';
import { messagesFor } from '../i18n/messages.js';
import type { Logger } from '../logging/create-logger.js';
import type { ModelPort } from '../model/model-port.js';
import type { AuditLog } from '../registry/audit-log.js';
import type { Store } from '../store/key-value-namespace.js';
import { traceContext } from '../logging/trace-context.js';
import type { Telemetry } from '../telemetry/telemetry.js';
import { isClusterStore } from './open-event-bus.js';

/** Accounting and budgets as wired: `meter` wraps every model the runtime calls; `control` goes to the runtime. */
export type Budgets = {
  readonly control: BudgetControl;
  meter(model: ModelPort): ModelPort;
  /** Counts a call made outside a model port (an embeddings call) like a metered one: ledger and `/metrics`. */
  record(call: MeteredCall): void;
  /** Ends the shared reservations' connections (cluster mode), after the last turn. */
  close(): Promise<void>;
};

/** A hold outlives the longest turn by this much before it is freed as its process's (which died). */
const holdMarginMs = 60_000;

/**
 * Builds the usage ledger (namespace `usage`), budget control (namespace `budget-state`), the reservations
 * (in memory; in PostgreSQL when the store is the cluster's) and the model meter from config.
 */
export async function createBudgets(options: {
  readonly config: Config;
  readonly store: Store;
  readonly telemetry: Telemetry;
  readonly audit: Pick<AuditLog, 'record'>;
  readonly logger: Logger;
  readonly now: () => Date;
  /** The budgets channels declare for their callers (an A2A key's), by scope name: billed as jobs of those names. */
  readonly callerBudgets?: Readonly<Record<string, NonNullable<Config['budgets']['job']>>>;
}): Promise<Budgets> {
  const { config } = options;
  const ledger = createUsageLedger({
    counters: options.store.namespace<UsageTotals>('usage'),
    prices: config.prices,
    flushDelayMs: 1000,
    periods: createPeriodClock({ timezone: config.agent.timezone, now: options.now }),
    onWriteFailed: (error) => options.logger.warn({ err: error }, 'usage counters could not be written; they are kept and retried'),
    // Without budgets no turn reads the counters: none is kept in memory once written.
    ...(hasBudgets(config.budgets) ? {} : { keepIdleCounters: 0 }),
  });
  const ownHolds = createMemoryBudgetHolds();
  // The PostgreSQL client loads only in cluster mode: one process never pays for it.
  const holds: BudgetHolds = isClusterStore(config.storage.url)
    ? (await import('../cluster/create-postgres-budget-holds.js')).createPostgresBudgetHolds({ url: config.storage.url ?? '', logger: options.logger.child({ component: 'budget-holds' }), fallback: ownHolds })
    : ownHolds;
  const control = createBudgetControl({
    config: config.budgets,
    ledger,
    states: options.store.namespace<BudgetState>('budget-state'),
    audit: options.audit,
    holds,
    prices: config.prices,
    holdTtlMs: config.agent.turnTimeoutMs + holdMarginMs,
    // Each hook's own budget, billed to its job id hook:<name>.
    jobBudgets: {
      ...Object.fromEntries(Object.entries(config.hooks).flatMap(([name, hook]) => (hook.budget === undefined ? [] : [[hookSubject(name), hook.budget]]))),
      ...options.callerBudgets,
    },
  });
  const display = { currency: config.budgets.currency, timezone: config.agent.timezone };
  const record = (call: MeteredCall) => {
    const { cost } = ledger.record(call);
    options.telemetry.emitModelUsage({
      model: call.model,
      channel: call.attribution.channel,
      origin: call.attribution.origin,
      sessionKey: call.attribution.sessionKey,
      ...traceOf(traceContext.getStore()?.traceId),
      ...(call.durationMs === undefined ? {} : { durationMs: Math.round(call.durationMs) }),
      inputTokens: call.usage?.inputTokens ?? 0,
      cachedInputTokens: call.usage?.cachedInputTokens ?? 0,
      outputTokens: call.usage?.outputTokens ?? 0,
      ...(cost === undefined ? {} : { cost }),
    });
  };
  return {
    control,
    record,
    meter: (model) =>
      createMeteredModel(
        model,
        record,
        // Side calls (the risk explainer, the reviewer) reserve here; a turn's calls bring their hold along.
        control.enforced
          ? async (request, attribution, name) => {
              const reserved = await control.reserve(request, attribution, name);
              return reserved.ok ? reserved : { ok: false, message: describeStop(reserved.stop, messagesFor('en'), display) };
            }
          : undefined,
      ),
    close: () => holds.close(),
  };
}

function traceOf(traceId: string | undefined): { readonly traceId?: string } {
  return traceId === undefined ? {} : { traceId };
}
