import type { ScriptedStep, ScriptedUsage } from './scripted-step.js';

/** A successful scripted answer, API-neutral, with ids assigned and arguments as JSON text. */
export type ScriptedReply = {
  readonly text: string;
  readonly toolCalls: readonly { readonly id: string; readonly name: string; readonly argumentsText: string }[];
  readonly finishReason: 'stop' | 'length' | 'tool-calls';
  readonly usage: ScriptedUsage;
};

const defaultUsage: ScriptedUsage = { input: 10, output: 10 };

/** Turns a non-error step into a reply: echoes `echo: <last user text>` when the step has no content. */
export function toScriptedReply(
  step: ScriptedStep,
  options: { readonly lastUserText: string; readonly idPrefix: string; readonly nextId: () => number },
): ScriptedReply {
  const toolCalls = (step.toolCalls ?? []).map((call) => ({
    id: call.id ?? `${options.idPrefix}${options.nextId()}`,
    name: call.name,
    argumentsText: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
  }));
  const hasContent = step.text !== undefined || toolCalls.length > 0;
  const text = hasContent ? (step.text ?? '') : `echo: ${options.lastUserText}`;
  const finishReason = toolCalls.length > 0 ? 'tool-calls' : (step.finishReason ?? 'stop');
  return { text, toolCalls, finishReason, usage: step.usage ?? defaultUsage };
}
