import type { TurnFinished } from '../events/outbox.js';
import type { AuditEntry } from '../registry/audit-log.js';

/** One handled inbound event and how long its handler took. */
export type EventHandled = { readonly type: string; readonly channel: string; readonly durationMs: number; readonly failed: boolean };

/** One accounted model call, for metrics: tokens by kind and the cost when the model has a price. */
export type ModelUsageReport = {
  readonly model: string;
  readonly channel: string;
  readonly origin: string;
  /** The conversation the call was made for (the web console's activity view). */
  readonly sessionKey?: string;
  /** The turn's trace id when the call was made inside one: the activity view files the call under that turn. */
  readonly traceId?: string;
  /** How long the provider took to answer. */
  readonly durationMs?: number;
  readonly inputTokens: number;
  readonly cachedInputTokens: number;
  readonly outputTokens: number;
  readonly cost?: number;
};

/** One request to a named hook and how it ended (accepted, duplicate, not-matched, unverified, bad-request, unavailable). */
export type HookDeliveryReport = { readonly hook: string; readonly outcome: string };

/** Fan-out of runtime signals to observers (metrics, webhook waits, cron run records). */
export interface Telemetry {
  onTurnFinished(listener: (report: TurnFinished) => void): () => void;
  onAudit(listener: (entry: AuditEntry) => void): () => void;
  onEventHandled(listener: (event: EventHandled) => void): () => void;
  onModelUsage(listener: (report: ModelUsageReport) => void): () => void;
  onHookDelivery(listener: (report: HookDeliveryReport) => void): () => void;
  emitHookDelivery(report: HookDeliveryReport): void;
  emitModelUsage(report: ModelUsageReport): void;
  emitTurnFinished(report: TurnFinished): void;
  emitAudit(entry: AuditEntry): void;
  emitEventHandled(event: EventHandled): void;
}

/** Creates the telemetry hub; a throwing listener never breaks the runtime. */
export function createTelemetry(): Telemetry {
  const turn = new Set<(report: TurnFinished) => void>();
  const audit = new Set<(entry: AuditEntry) => void>();
  const handled = new Set<(event: EventHandled) => void>();
  const usage = new Set<(report: ModelUsageReport) => void>();
  const hooks = new Set<(report: HookDeliveryReport) => void>();
  const subscribe = <T>(set: Set<T>, listener: T) => {
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  };
  const emit = <T>(set: Set<(value: T) => void>, value: T) => {
    for (const listener of set) {
      try {
        listener(value);
      } catch {
        // Observers must not take a turn down with them.
      }
    }
  };
  return {
    onTurnFinished: (listener) => subscribe(turn, listener),
    onAudit: (listener) => subscribe(audit, listener),
    onEventHandled: (listener) => subscribe(handled, listener),
    onModelUsage: (listener) => subscribe(usage, listener),
    emitModelUsage: (report) => emit(usage, report),
    onHookDelivery: (listener) => subscribe(hooks, listener),
    emitHookDelivery: (report) => emit(hooks, report),
    emitTurnFinished: (report) => emit(turn, report),
    emitAudit: (entry) => emit(audit, entry),
    emitEventHandled: (event) => emit(handled, event),
  };
}
