import type { ModelPort, UsageAttribution } from '../model/model-port.js';

/** Options of the risk explainer. */
export type RiskExplainerOptions = { readonly model: ModelPort; readonly timeoutMs: number; readonly enabled: boolean };

/** What a fallback explanation says when the model does not answer in time: deterministic, from the risk level. */
export function fallbackExplanation(risk: string): string {
  switch (risk) {
    case 'read_only':
      return 'It only reads; nothing is changed.';
    case 'write':
      return 'It changes stored data or sends something on your behalf.';
    case 'exec':
      return 'It runs a command on the host machine, which can change files or use the network.';
    default:
      return 'It can make changes that are hard to undo.';
  }
}

/** Asks the model, in a separate short call with a hard timeout, for one sentence on what could go wrong. */
export function createRiskExplainer(options: RiskExplainerOptions) {
  return async (input: { readonly toolName: string; readonly summary: string; readonly argumentsText: string; readonly risk: string; readonly attribution?: UsageAttribution }): Promise<string> => {
    if (!options.enabled) return fallbackExplanation(input.risk);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), options.timeoutMs);
    try {
      const result = await options.model.complete({
        messages: [
          { role: 'system', content: 'In one short sentence (under 30 words), say what this action will do and its main risk. No preamble.' },
          { role: 'user', content: `Tool: ${input.toolName} (risk ${input.risk})\nSummary: ${input.summary}\nArguments:\n${input.argumentsText}` },
        ],
        tools: [],
        signal: controller.signal,
        maxTokens: 80,
        ...(input.attribution === undefined ? {} : { attribution: input.attribution }),
      });
      const sentence = result.ok ? result.answer.text.trim().split('\n')[0]?.slice(0, 300) : undefined;
      return sentence && sentence.length > 0 ? sentence : fallbackExplanation(input.risk);
    } catch {
      return fallbackExplanation(input.risk);
    } finally {
      clearTimeout(timer);
    }
  };
}
