import type { Logger } from '../logging/create-logger.js';
import type { ToolDefinition } from '../registry/define-tool.js';
import { canonicalJson } from '../registry/canonical-json.js';
import type { ToolRegistry } from '../registry/tool-registry.js';
import type { ChatMessage, ToolCall } from '../model/chat-message.js';
import type { TurnScope } from './turn-scope.js';

/** A call that stopped the batch: it waits for a person's approval or answer. */
export type CallSuspension =
  | {
      readonly kind: 'approval';
      readonly call: ToolCall;
      readonly remaining: readonly ToolCall[];
      readonly tool: ToolDefinition;
      readonly input: unknown;
      readonly argumentsHash: string;
      readonly reason: string;
    }
  | { readonly kind: 'question'; readonly call: ToolCall; readonly remaining: readonly ToolCall[]; readonly question: string; readonly options: readonly string[] };

/** Tool results of the calls that ran, and the suspension that stopped the batch, if any. */
export type CallBatchOutcome = { readonly results: readonly Extract<ChatMessage, { role: 'tool' }>[]; readonly suspension?: CallSuspension };

/** Identical calls allowed per turn before the loop guard blocks the next one. */
const maxIdenticalCalls = 3;

/** What executeCalls needs. */
export type ExecuteCallsInput = {
  readonly registry: ToolRegistry;
  readonly scope: TurnScope;
  readonly calls: readonly ToolCall[];
  /** Counts of identical calls made so far in this turn, keyed by name and canonical arguments. */
  readonly repeats: Map<string, number>;
  readonly logger: Logger;
  /** The turn's deadline: tools are aborted with it. */
  readonly signal?: AbortSignal;
  /** An argument hash a person approved once, for the first call of this batch only. */
  readonly approvedFirstCall?: string;
};

/** Runs a batch of tool calls in order through the registry, stopping at the first that must wait for a person. */
export async function executeCalls(input: ExecuteCallsInput): Promise<CallBatchOutcome> {
  const results: Extract<ChatMessage, { role: 'tool' }>[] = [];
  for (const [index, call] of input.calls.entries()) {
    // Keyed by the resolved tool, so switching between an alias and its tool (bash, exec) does not dodge the guard.
    const repeatKey = `${input.registry.find(call.name)?.name ?? call.name}\u0000${normalizeArguments(call.argumentsText)}`;
    const seen = (input.repeats.get(repeatKey) ?? 0) + 1;
    input.repeats.set(repeatKey, seen);
    if (seen > maxIdenticalCalls) {
      results.push({ role: 'tool', toolCallId: call.id, toolName: call.name, content: `Blocked: this exact call was already made ${maxIdenticalCalls} times in this turn. Use the earlier results or change approach.` });
      continue;
    }
    const outcome = await input.registry.execute({
      call,
      traceId: input.scope.traceId,
      sessionKey: input.scope.sessionKey,
      userId: input.scope.userId,
      channel: input.scope.channel,
      chatId: input.scope.chatId,
      target: input.scope.target,
      origin: input.scope.origin,
      unattended: input.scope.unattended,
      visibleTools: input.scope.visibleTools,
      approvedActions: index === 0 && input.approvedFirstCall !== undefined ? [...input.scope.approvedActions, input.approvedFirstCall] : input.scope.approvedActions,
      services: input.scope.services,
      traceStartedHere: input.scope.traceStartedHere,
      callKey: `${input.scope.runKey}#${input.scope.callCounter.next++}`,
      signal: input.signal,
    });
    const remaining = input.calls.slice(index + 1);
    if (outcome.kind === 'approval-required') {
      return { results, suspension: { kind: 'approval', call, remaining, tool: outcome.tool, input: outcome.input, argumentsHash: outcome.argumentsHash, reason: outcome.reason } };
    }
    const awaitAnswer = outcome.result.metadata.awaitAnswer as { question: string; options: string[] } | undefined;
    if (outcome.result.ok && awaitAnswer) {
      return { results, suspension: { kind: 'question', call, remaining, question: awaitAnswer.question, options: awaitAnswer.options } };
    }
    input.logger.debug({ traceId: input.scope.traceId, tool: outcome.toolName, ok: outcome.result.ok, errorKind: outcome.result.errorKind }, 'tool call finished');
    results.push({ role: 'tool', toolCallId: call.id, toolName: outcome.toolName, content: outcome.result.ok ? outcome.result.output : `Error (${outcome.result.errorKind}): ${outcome.result.output}` });
  }
  return { results };
}

function normalizeArguments(text: string): string {
  try {
    return canonicalJson(JSON.parse(text));
  } catch {
    return text;
  }
}
