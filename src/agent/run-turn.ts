import { toolsVisibleTo } from '../policy/plan-delegation.js';
import type { Logger } from '../logging/create-logger.js';
import type { ToolRegistry } from '../registry/tool-registry.js';
import type { ChatMessage } from '../model/chat-message.js';
import { type CallSuspension, executeCalls } from './execute-calls.js';
import type { ModelFailure, ModelPort, ModelUsage } from '../model/model-port.js';
import type { TurnScope } from './turn-scope.js';
import type { CallReviewer } from '../reviewer/create-call-reviewer.js';
import { attributionOf } from './attribution-of.js';
import type { TurnBudget } from './create-turn-budget.js';
import type { TurnStop } from '../budgets/budget-check.js';
import type { TurnDelegation } from './create-turn-delegation.js';

/** How a turn ended: an answer, a wait for a person, or a model that could not be reached. */
export type TurnOutcome =
  | { readonly status: 'completed'; readonly text: string; readonly newMessages: readonly ChatMessage[] }
  | { readonly status: 'suspended'; readonly suspension: CallSuspension; readonly newMessages: readonly ChatMessage[] }
  | { readonly status: 'model-failed'; readonly failure: ModelFailure; readonly newMessages: readonly ChatMessage[] }
  | { readonly status: 'stopped'; readonly stop: TurnStop; readonly newMessages: readonly ChatMessage[] };

/** What one run of the loop needs. */
export type RunTurnInput = {
  readonly model: ModelPort;
  readonly registry: ToolRegistry;
  readonly logger: Logger;
  readonly scope: TurnScope;
  readonly systemPrompt: string;
  /** The conversation so far, ending with what this turn answers. */
  readonly messages: readonly ChatMessage[];
  readonly maxIterations: number;
  /** Aborts model calls and tools when the turn has run too long. */
  readonly signal?: AbortSignal;
  readonly onTextDelta?: (delta: string) => void;
  /** Called before each model call, so a streamed draft starts over with the new answer. */
  readonly onModelCall?: () => void;
  /** Builds the placeholder results stored for calls that wait (see approvals/suspended-turn). */
  readonly placeholders: (suspension: CallSuspension) => readonly Extract<ChatMessage, { role: 'tool' }>[];
  /** Smart approvals (see executeCalls). */
  readonly reviewer?: CallReviewer;
  /** Asked before every model call (budgets, the per-turn ceiling); absent when none is configured. */
  readonly budget?: TurnBudget;
  /** What this run may hand to sub-tasks (`delegate`): its own model calls are counted in its allowance. */
  readonly delegation?: TurnDelegation;
};

const forcedFinalNote = 'You have reached the limit of tool calls for this turn. Answer the user now with what you have, without calling tools.';

/** The agent loop: call the model, run its tool calls through the registry, feed results back, until a final answer. */
export async function runTurn(input: RunTurnInput): Promise<TurnOutcome> {
  const added: ChatMessage[] = [];
  const repeats = new Map<string, number>();
  // A sub-task is shown only its allowed tools; the registry refuses the rest anyway.
  const tools = input.registry.definitions(toolsVisibleTo(input.scope));
  const system: ChatMessage = { role: 'system', content: input.systemPrompt };
  const attribution = attributionOf(input.scope);

  for (let iteration = 1; iteration <= input.maxIterations; iteration += 1) {
    const request = { messages: [system, ...input.messages, ...added], tools, onTextDelta: input.onTextDelta, signal: input.signal, attribution };
    const before = await input.budget?.beforeModelCall(request, input.model.name);
    if (before?.stop) return { status: 'stopped', stop: before.stop, newMessages: added };
    input.onModelCall?.();
    const result = await input.model.complete(before?.hold === undefined ? request : { ...request, hold: before.hold });
    if (!result.ok) {
      // The meter released it already; this covers a wrapper that failed before reaching the meter.
      before?.hold?.release();
      return { status: 'model-failed', failure: result.failure, newMessages: added };
    }
    input.budget?.afterModelCall(result.answer.usage);
    spendOwn(input.delegation, result.answer.usage);
    const { text, toolCalls } = result.answer;
    added.push(toolCalls.length > 0 ? { role: 'assistant', content: text, toolCalls } : { role: 'assistant', content: text });
    if (toolCalls.length === 0) return { status: 'completed', text, newMessages: added };

    const batch = await executeCalls({ registry: input.registry, scope: input.scope, calls: toolCalls, repeats, logger: input.logger, signal: input.signal, reviewer: input.reviewer, delegation: input.delegation });
    added.push(...batch.results);
    if (batch.suspension) {
      added.push(...input.placeholders(batch.suspension));
      return { status: 'suspended', suspension: batch.suspension, newMessages: added };
    }
  }

  input.logger.info({ traceId: input.scope.traceId, maxIterations: input.maxIterations }, 'iteration limit reached; forcing a final answer');
  const finalRequest = { messages: [system, ...input.messages, ...added, { role: 'user' as const, content: forcedFinalNote }], tools: [], signal: input.signal, attribution };
  const before = await input.budget?.beforeModelCall(finalRequest, input.model.name);
  if (before?.stop) return { status: 'stopped', stop: before.stop, newMessages: added };
  const final = await input.model.complete(before?.hold === undefined ? finalRequest : { ...finalRequest, hold: before.hold });
  if (!final.ok) {
    before?.hold?.release();
    return { status: 'model-failed', failure: final.failure, newMessages: added };
  }
  added.push({ role: 'assistant', content: final.answer.text });
  return { status: 'completed', text: final.answer.text, newMessages: added };
}

/** Counts a model call of the turn itself in its allowance, capped at what is left (the ceiling itself is the budget's). */
function spendOwn(delegation: TurnDelegation | undefined, usage: ModelUsage | undefined): void {
  if (delegation === undefined) return;
  const left = delegation.allowance.remaining();
  const tokens = (usage?.inputTokens ?? 0) + (usage?.cachedInputTokens ?? 0) + (usage?.outputTokens ?? 0);
  delegation.allowance.spend({ tokens: Math.min(tokens, left.tokens), modelCalls: Math.min(1, left.modelCalls), seconds: 0 });
}
