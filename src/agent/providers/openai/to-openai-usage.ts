import type { ModelUsage } from '../../../model/model-port.js';

/** The part of an OpenAI `usage` object that is read (streamed chunks and whole answers both carry it). */
export type OpenAiUsage = {
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly prompt_tokens_details?: { readonly cached_tokens?: number | undefined } | null | undefined;
};

/** The OpenAI `usage` object as ours: prompt tokens split into full-price and cached; undefined when absent. Pure. */
export function toOpenAiUsage(usage: OpenAiUsage | null | undefined): ModelUsage | undefined {
  if (!usage) return undefined;
  const cached = usage.prompt_tokens_details?.cached_tokens ?? 0;
  return { inputTokens: Math.max(0, usage.prompt_tokens - cached), cachedInputTokens: cached, outputTokens: usage.completion_tokens };
}
