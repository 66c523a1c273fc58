import type { ModelPrice } from '../config/config-schema.js';
import type { ModelUsage } from '../model/model-port.js';

const perMillion = 1_000_000;

/** What one call cost by the price table, or undefined when the model has no price (or reported no usage). Pure. */
export function priceOfCall(usage: ModelUsage | undefined, price: ModelPrice | undefined): number | undefined {
  if (price === undefined || usage === undefined) return undefined;
  const cachedPrice = price.cachedInput ?? price.input;
  return (usage.inputTokens * price.input + usage.cachedInputTokens * cachedPrice + usage.outputTokens * price.output) / perMillion;
}
