import type { CompletionUsage } from 'openai/resources/completions';
import type { ModelUsage } from '../../../model/model-port.js';

/** The OpenAI `usage` object as ours: prompt tokens split into full-price and cached; undefined when absent. Pure. */
export function toOpenAiUsage(usage: CompletionUsage | null | undefined): ModelUsage | undefined {
  if (!usage) return undefined;
  const cached = usage.prompt_tokens_details?.cached_tokens ?? 0;
  return { inputTokens: Math.max(0, usage.prompt_tokens - cached), cachedInputTokens: cached, outputTokens: usage.completion_tokens };
}
