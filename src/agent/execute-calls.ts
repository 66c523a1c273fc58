import { EchoError } from '../errors/echo-error.js';
import type { Logger } from '../logging/create-logger.js';
import type { ToolDefinition } from '../registry/define-tool.js';
import { canonicalJson } from '../registry/canonical-json.js';
import type { ToolRegistry } from '../registry/tool-registry.js';
import type { ChatMessage, ToolCall } from '../model/chat-message.js';
import type { TurnScope } from './turn-scope.js';
import type { CallReviewer } from '../reviewer/create-call-reviewer.js';
import type { ElicitationAnswer, ElicitationForm } from '../registry/elicitation.js';
import type { PendingSubTask } from '../approvals/pending-sub-task.js';
import type { TurnDelegation } from './create-turn-delegation.js';
import { delegateToolName, planSubTask, readSubTaskRequest } from './plan-sub-task.js';

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
      /** Why the approval reviewer passed the call on to a person (smart mode). */
      readonly reviewerNote?: string;
    }
  | {
      readonly kind: 'question';
      readonly call: ToolCall;
      readonly remaining: readonly ToolCall[];
      readonly question: string;
      readonly options: readonly string[];
      /** An MCP server asked the person for input during the call: the request, and the call's approved hash. */
      readonly elicitation?: { readonly form: ElicitationForm; readonly argumentsHash: string };
    }
  | {
      /** `delegate` calls granted their sub-tasks: the turn waits until every one of them ended. */
      readonly kind: 'delegation';
      /** The first `delegate` call. */
      readonly call: ToolCall;
      readonly remaining: readonly ToolCall[];
      /** One per granted `delegate` call, in call order. */
      readonly subTasks: readonly PendingSubTask[];
    };

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
  /**
   * An argument hash a person approved "once", for the first call of this batch only: it covers exactly the
   * call shown on the card, so an identical call later in the turn asks again.
   */
  readonly approvedFirstCall?: string;
  /** Smart approvals: settles reviewable calls before a person is asked (attended turns only). */
  readonly reviewer?: CallReviewer;
  /** The person's answer to the MCP server that asked during the first call of this batch (a resumed elicitation). */
  readonly firstCallElicitationAnswer?: ElicitationAnswer;
  /** What this run may hand to sub-tasks (`delegate`); absent: every sub-task is refused. */
  readonly delegation?: TurnDelegation;
};

/** Runs a batch of tool calls in order through the registry, stopping at the first that must wait for a person. */
export async function executeCalls(input: ExecuteCallsInput): Promise<CallBatchOutcome> {
  const results: Extract<ChatMessage, { role: 'tool' }>[] = [];
  const subTasks: PendingSubTask[] = [];
  const waitForSubTasks = (remaining: readonly ToolCall[]): CallBatchOutcome => ({ results, suspension: { kind: 'delegation', call: callOf(input.calls, subTasks), remaining, subTasks } });
  for (const [index, call] of input.calls.entries()) {
    // Sub-tasks run side by side with the delegate calls next to them; any other call waits for their results.
    if (subTasks.length > 0 && input.registry.find(call.name)?.name !== delegateToolName) return waitForSubTasks(input.calls.slice(index));
    // Keyed by the resolved tool, so switching between an alias and its tool (bash, exec) does not dodge the guard.
    const repeatKey = `${input.registry.find(call.name)?.name ?? call.name}\u0000${normalizeArguments(call.argumentsText)}`;
    const seen = (input.repeats.get(repeatKey) ?? 0) + 1;
    input.repeats.set(repeatKey, seen);
    if (seen > maxIdenticalCalls) {
      results.push({ role: 'tool', toolCallId: call.id, toolName: call.name, content: `Blocked: this exact call was already made ${maxIdenticalCalls} times in this turn. Use the earlier results or change approach.` });
      continue;
    }
    const callKey = `${input.scope.runKey}#${input.scope.callCounter.next++}`;
    const execute = (approvedActions: readonly string[]) => input.registry.execute({
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
      ...(input.scope.allowedTools === undefined ? {} : { allowedTools: input.scope.allowedTools }),
      ...(input.scope.delegationChain === undefined ? {} : { delegationChain: input.scope.delegationChain }),
      approvedActions,
      services: input.scope.services,
      traceStartedHere: input.scope.traceStartedHere,
      callKey,
      signal: input.signal,
      ...(index === 0 && input.firstCallElicitationAnswer !== undefined ? { elicitationAnswer: input.firstCallElicitationAnswer } : {}),
    });
    let outcome = await execute(index === 0 && input.approvedFirstCall !== undefined ? [input.approvedFirstCall] : []);
    const remaining = input.calls.slice(index + 1);
    let reviewerNote: string | undefined;
    if (outcome.kind === 'approval-required' && outcome.reviewable && !input.scope.unattended && input.reviewer) {
      const { scope } = input;
      const verdict = await input.reviewer({ traceId: scope.traceId, sessionKey: scope.sessionKey, userId: scope.userId, channel: scope.channel, target: scope.target, tool: outcome.tool, input: outcome.input });
      if (verdict?.decision === 'deny') {
        results.push({ role: 'tool', toolCallId: call.id, toolName: outcome.toolName, content: reviewerDenial(verdict.model, verdict.reason) });
        continue;
      }
      // "Approve" takes the path of a person's "approve once": this call's exact hash, for this call alone, under the same call key.
      if (verdict?.decision === 'approve') outcome = await execute([outcome.argumentsHash]);
      else reviewerNote = verdict?.reason;
    }
    if (outcome.kind === 'approval-required') {
      const suspension = { kind: 'approval' as const, call, remaining, tool: outcome.tool, input: outcome.input, argumentsHash: outcome.argumentsHash, reason: outcome.reason };
      return { results, suspension: reviewerNote === undefined ? suspension : { ...suspension, reviewerNote } };
    }
    const awaitElicitation = outcome.result.metadata.awaitElicitation as ElicitationForm | undefined;
    const argumentsHash = outcome.result.metadata.argumentsHash;
    if (outcome.result.ok && awaitElicitation && typeof argumentsHash === 'string') {
      const elicitation = { form: awaitElicitation, argumentsHash };
      return { results, suspension: { kind: 'question', call, remaining, question: awaitElicitation.message, options: [], elicitation } };
    }
    const awaitAnswer = outcome.result.metadata.awaitAnswer as { question: string; options: string[] } | undefined;
    if (outcome.result.ok && awaitAnswer) {
      return { results, suspension: { kind: 'question', call, remaining, question: awaitAnswer.question, options: awaitAnswer.options } };
    }
    // Only the delegate tool starts sub-tasks: metadata of any other tool's result is never read as a request.
    const subTaskRequest = outcome.result.ok && outcome.toolName === delegateToolName ? readSubTaskRequest(outcome.result.metadata) : undefined;
    if (subTaskRequest) {
      const pending = Math.min(remaining.filter((next) => input.registry.find(next.name)?.name === delegateToolName).length + 1, (input.delegation?.limits.maxParallel ?? 1) - subTasks.length);
      const plan = planSubTask({ scope: input.scope, delegation: input.delegation, call, request: subTaskRequest, running: subTasks.length, pending });
      if (plan.kind === 'granted') subTasks.push(plan.subTask);
      else results.push({ role: 'tool', toolCallId: call.id, toolName: outcome.toolName, content: `Error (refused): ${plan.text}` });
      continue;
    }
    input.logger.debug({ traceId: input.scope.traceId, tool: outcome.toolName, ok: outcome.result.ok, errorKind: outcome.result.errorKind }, 'tool call finished');
    results.push({ role: 'tool', toolCallId: call.id, toolName: outcome.toolName, content: outcome.result.ok ? outcome.result.output : `Error (${outcome.result.errorKind}): ${outcome.result.output}` });
  }
  return subTasks.length > 0 ? waitForSubTasks([]) : { results };
}

/** The `delegate` call of the first granted sub-task. */
function callOf(calls: readonly ToolCall[], subTasks: readonly PendingSubTask[]): ToolCall {
  const first = calls.find((call) => call.id === subTasks[0]?.callId);
  if (first === undefined) throw new EchoError('sub-task-call-missing', 'a granted sub-task names no call of its batch');
  return first;
}

/** What the model reads when the approval reviewer refused a call. */
function reviewerDenial(model: string, reason: string): string {
  return `Error (denied): Not run: the approval reviewer (${model}) denied this action (reason: ${reason}). Tell the user; do not retry the same call.`;
}

function normalizeArguments(text: string): string {
  try {
    return canonicalJson(JSON.parse(text));
  } catch {
    return text;
  }
}
