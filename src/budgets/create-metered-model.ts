import type { ModelPort, ModelRequest, ModelUsage, UsageAttribution, UsageHold } from '../model/model-port.js';

/** One answered model call with the attribution its request carried. */
export type MeteredCall = { readonly attribution: UsageAttribution; readonly model: string; readonly usage: ModelUsage | undefined; readonly durationMs?: number };

/** Reserves against the budgets for a call that brought no hold of its own (a side call: reviewer, risk explainer). */
export type ReserveForCall = (request: ModelRequest, attribution: UsageAttribution, model: string) => Promise<{ readonly ok: true; readonly hold?: UsageHold } | { readonly ok: false; readonly message: string }>;

/**
 * Wraps a model so that every answered call that says whose it is (`request.attribution`) is reported:
 * the turn's calls, the risk explainer's and the reviewer's alike. A failed call reports nothing.
 * A call's budget hold (the request's, or one reserved here for side calls) is settled in the same tick
 * as the call is reported, so what it held and what it used are never both counted, nor neither.
 */
export function createMeteredModel(model: ModelPort, onCall: (call: MeteredCall) => void, reserve?: ReserveForCall): ModelPort {
  return {
    name: model.name,
    async complete(request) {
      let hold = request.hold;
      if (hold === undefined && reserve !== undefined && request.attribution !== undefined) {
        const reserved = await reserve(request, request.attribution, model.name);
        if (!reserved.ok) return { ok: false, failure: { kind: 'budget', message: reserved.message, retryable: false, provider: model.name } };
        hold = reserved.hold;
      }
      let result: Awaited<ReturnType<ModelPort['complete']>>;
      const startedAt = performance.now();
      try {
        result = await model.complete(request);
      } catch (error) {
        hold?.release();
        throw error;
      }
      if (!result.ok) {
        hold?.release();
        return result;
      }
      const name = result.answer.model ?? model.name;
      if (request.attribution !== undefined) onCall({ attribution: request.attribution, model: name, usage: result.answer.usage, durationMs: performance.now() - startedAt });
      hold?.settle(result.answer.usage, name);
      return result;
    },
  };
}
