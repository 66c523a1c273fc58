import type { ModelUsageReport, Telemetry } from '../telemetry/telemetry.js';

/** One model call as the activity view lists it. */
export type LoggedModelCall = ModelUsageReport & { readonly at: string };

/**
 * The newest model calls this process made (model, tokens, cost, session), kept in memory from the moment the console
 * was wired: the audit log records tool calls and approvals, not model calls, and the usage ledger only sums them.
 */
export interface ModelCallLog {
  /** Newest first. */
  recent(): readonly LoggedModelCall[];
}

/** Listens to the telemetry hub's model usage; keeps at most `limit` calls (default 300). */
export function createModelCallLog(input: { readonly telemetry: Pick<Telemetry, 'onModelUsage'>; readonly now: () => Date; readonly limit?: number }): ModelCallLog {
  const limit = input.limit ?? 300;
  const calls: LoggedModelCall[] = [];
  input.telemetry.onModelUsage((report) => {
    calls.push({ ...report, at: input.now().toISOString() });
    if (calls.length > limit) calls.splice(0, calls.length - limit);
  });
  return { recent: () => [...calls].reverse() };
}
