import type { ModelPort, ModelUsage, UsageAttribution } from '../model/model-port.js';

/** One answered model call with the attribution its request carried. */
export type MeteredCall = { readonly attribution: UsageAttribution; readonly model: string; readonly usage: ModelUsage | undefined };

/**
 * Wraps a model so that every answered call that says whose it is (`request.attribution`) is reported:
 * the turn's calls, the risk explainer's and the reviewer's alike. A failed call reports nothing.
 */
export function createMeteredModel(model: ModelPort, onCall: (call: MeteredCall) => void): ModelPort {
  return {
    name: model.name,
    async complete(request) {
      const result = await model.complete(request);
      if (result.ok && request.attribution !== undefined) onCall({ attribution: request.attribution, model: result.answer.model ?? model.name, usage: result.answer.usage });
      return result;
    },
  };
}
