import { decideToolAccess } from '../policy/decide-tool-access.js';
import { abortableSleep, backoffDelay } from '../retry/backoff-delay.js';
import type { ToolDefinition } from './define-tool.js';
import { formatValidationError } from './format-validation-error.js';
import { runWithTimeout } from './run-with-timeout.js';
import type { ToolContext } from './tool-context.js';
import type { ToolOutcome, ToolResult } from './tool-outcome.js';
import type { ExecuteOutcome, ExecutionRequest, ToolRegistryOptions } from './tool-registry.js';
import { hashToolCall } from './canonical-json.js';
import { isStartedMarker } from './replay-guard.js';

const maxOutputChars = 16_000;
const defaultTimeoutMs = 30_000;

/** One execution's inputs, assembled by the registry. */
export type ExecuteToolInput = {
  readonly request: ExecutionRequest;
  readonly tool: ToolDefinition | undefined;
  readonly options: ToolRegistryOptions;
  readonly executionId: string;
  /** Why a tool that is not registered now cannot be called (its server is down), when a dynamic source knows it. */
  readonly unavailableReason?: string;
  readonly idempotencyKey: (input: unknown) => string;
};

/**
 * The execution kernel, in order: resolve → scoped allow-list and policy re-check → validate →
 * approval gate → replay guard → run with timeout and retries → record idempotency → audit → result.
 * Every expected failure comes back as a ToolResult the model reads; nothing here throws for them.
 */
export async function executeTool(input: ExecuteToolInput): Promise<ExecuteOutcome> {
  const { request, tool, options } = input;
  const started = performance.now();
  const requestedName = request.call.name;

  const finish = (toolName: string, result: ToolResult, extra: { arguments?: unknown; attempts?: number; approvalSource?: string } = {}): ExecuteOutcome => {
    options.audit.record({
      kind: 'tool-call',
      traceId: request.traceId,
      sessionKey: request.sessionKey,
      userId: request.userId,
      channel: request.channel,
      tool: toolName,
      server: tool?.server,
      arguments: extra.arguments,
      outcome: result.ok ? 'ok' : (result.errorKind ?? 'internal'),
      durationMs: Math.round(performance.now() - started),
      attempts: extra.attempts ?? 0,
      approvalSource: extra.approvalSource,
      error: result.error,
      ...(request.delegationChain && request.delegationChain.length > 0 ? { delegationChain: request.delegationChain.map((link) => link.name), parentExecutionId: request.delegationChain.at(-1)?.parentExecutionId } : {}),
    });
    return { kind: 'result', toolName, result };
  };

  if (!tool && input.unavailableReason !== undefined) return finish(requestedName, failure('internal', input.unavailableReason));
  if (!tool) return finish(requestedName, failure('denied', `Unknown tool "${requestedName}". Use only the tools you were given.`));

  const policy = decideToolAccess(
    { name: tool.name, risk: tool.risk, capabilities: tool.capabilities ?? [] },
    { visibleTools: request.visibleTools, allowedTools: request.allowedTools, network: options.network, capabilityRules: options.capabilityRules ?? {} },
  );
  if (policy.decision === 'deny') return finish(tool.name, failure('denied', policy.reason));

  let rawArguments: unknown;
  try {
    rawArguments = request.call.argumentsText.trim() === '' ? {} : JSON.parse(request.call.argumentsText);
  } catch {
    return finish(tool.name, failure('validation', 'Invalid parameters: the arguments are not valid JSON.'));
  }
  const parsed = tool.input.safeParse(rawArguments);
  if (!parsed.success) return finish(tool.name, failure('validation', formatValidationError(parsed.error)), { arguments: rawArguments });
  const validInput: unknown = parsed.data;
  const argumentsHash = hashToolCall(tool.name, validInput);

  let approvalSource = 'policy';
  if (options.approvalHook) {
    const gate = await options.approvalHook({
      toolName: tool.name,
      risk: tool.risk,
      approval: tool.approval ?? 'by-risk',
      input: validInput,
      argumentsHash,
      sessionKey: request.sessionKey,
      userId: request.userId,
      channel: request.channel,
      origin: request.origin,
      unattended: request.unattended,
      approvedActions: request.approvedActions,
      policyAsks: policy.decision === 'ask' ? policy.reason : undefined,
    });
    if (gate.decision === 'deny') return finish(tool.name, failure('denied', gate.reason), { arguments: validInput });
    if (gate.decision === 'ask') {
      return { kind: 'approval-required', toolName: tool.name, tool, input: validInput, argumentsHash, reason: gate.reason, ...(gate.reviewable ? { reviewable: true } : {}) };
    }
    approvalSource = gate.source;
  } else if (policy.decision === 'ask') {
    return finish(tool.name, failure('denied', `${policy.reason} No approval gate is configured.`), { arguments: validInput });
  }

  const idempotencyKey = input.idempotencyKey(validInput);
  if (tool.sideEffects) {
    const earlier = await options.replayGuard.find(idempotencyKey, { memoryOnly: request.traceStartedHere === true });
    if (earlier) {
      const replayed = isStartedMarker(earlier) ? outcomeUnknown(tool.name) : { ...earlier, metadata: { ...earlier.metadata, replayed: true } };
      return finish(tool.name, replayed, { arguments: validInput, approvalSource: 'replay-guard' });
    }
    try {
      // Recorded before the call runs, and awaited: after a crash the call is reported, never run a second time.
      await options.replayGuard.markStarted(idempotencyKey);
    } catch (error) {
      return finish(tool.name, failure('internal', `Not run: the call could not be recorded before running (${error instanceof Error ? error.message : String(error)}).`), { arguments: validInput });
    }
  }

  const retries = tool.retries ?? 0;
  const timeoutMs = tool.timeoutMs ?? defaultTimeoutMs;
  let attempt = 0;
  let result: ToolResult = failure('internal', 'The tool did not run.');
  while (attempt <= retries) {
    attempt += 1;
    const timed = await runWithTimeout(
      (signal) => tool.execute(validInput, createContext(input, { attempt, idempotencyKey, signal })),
      timeoutMs,
      request.signal,
    );
    let retryable = false;
    if (timed.kind === 'timeout') {
      result = failure('timeout', `The tool "${tool.name}" timed out after ${timeoutMs} ms.`);
      // A side effect may have happened before the deadline: retrying could do it twice.
      retryable = !tool.sideEffects;
    } else if (timed.kind === 'threw') {
      result = failure('internal', `The tool "${tool.name}" failed: ${timed.error instanceof Error ? timed.error.message : String(timed.error)}`);
    } else {
      result = fromOutcome(timed.value);
      retryable = !timed.value.ok && timed.value.kind === 'infrastructure';
    }
    if (!retryable || attempt > retries) break;
    await abortableSleep(options.backoffMs?.(attempt) ?? backoffDelay(attempt - 1, { baseMs: 200, maxMs: 5000 }));
  }

  if (tool.sideEffects) {
    // Failures too: the started mark must give way to what is known. Memory has it at once; the store write goes
    // on in the background like the audit log's (until it lands, a crash leaves the honest "outcome unknown").
    options.replayGuard.remember(idempotencyKey, result).catch((error: unknown) => options.onBackgroundError?.(error, 'recording an idempotency key'));
  }
  // A call suspended on a person's input is resumed later under the same approval: its hash goes with the request.
  const finished = result.metadata.awaitElicitation === undefined ? result : { ...result, metadata: { ...result.metadata, argumentsHash } };
  return finish(tool.name, finished, { arguments: validInput, attempts: attempt, approvalSource });
}

function createContext(input: ExecuteToolInput, call: { attempt: number; idempotencyKey: string; signal: AbortSignal }): ToolContext {
  const { request, tool, options } = input;
  const credentials = tool && Object.hasOwn(options.credentials ?? {}, tool.name) ? (options.credentials?.[tool.name] ?? {}) : {};
  return {
    executionId: input.executionId,
    traceId: request.traceId,
    sessionKey: request.sessionKey,
    userId: request.userId,
    channel: request.channel,
    chatId: request.chatId,
    target: request.target,
    origin: request.origin,
    unattended: request.unattended,
    attempt: call.attempt,
    idempotencyKey: call.idempotencyKey,
    approvedActions: request.approvedActions,
    allowedTools: request.allowedTools,
    ...delegationOf(request),
    signal: call.signal,
    credentials,
    services: request.services,
    ...(request.elicitationAnswer === undefined ? {} : { elicitationAnswer: request.elicitationAnswer }),
  };
}

/** A sub-task's place in its chain, for its tools' context; nothing for a person's own turn. */
function delegationOf(request: ExecutionRequest): Pick<ToolContext, 'delegationChain' | 'parentExecutionId' | 'agentId'> {
  const link = request.delegationChain?.at(-1);
  if (!link) return {};
  return { delegationChain: request.delegationChain, parentExecutionId: link.parentExecutionId, agentId: link.agentId };
}

function fromOutcome(outcome: ToolOutcome): ToolResult {
  if (outcome.ok) {
    const metadata: Record<string, unknown> = { ...(outcome.metadata ?? {}) };
    if (outcome.awaitAnswer) metadata.awaitAnswer = outcome.awaitAnswer;
    if (outcome.awaitElicitation) metadata.awaitElicitation = outcome.awaitElicitation;
    return { ok: true, output: capOutput(outcome.output), metadata };
  }
  // An infrastructure failure that outlived its retries is not the tool saying no: report it as internal.
  return { ok: false, output: capOutput(outcome.error), error: outcome.error, errorKind: outcome.kind === 'infrastructure' ? 'internal' : 'business', metadata: {} };
}

/** What a re-run says about a side-effect call that began before a crash and has no recorded result. */
function outcomeUnknown(toolName: string): ToolResult {
  return failure('internal', `The tool "${toolName}" was started before a restart and its outcome is unknown: it may or may not have taken effect. It was not run again; check before trying it again.`);
}

function failure(errorKind: NonNullable<ToolResult['errorKind']>, error: string): ToolResult {
  return { ok: false, output: error, error, errorKind, metadata: {} };
}

/** Output past 16k characters is cut, with a note saying so, so the model knows it saw only part. */
function capOutput(text: string): string {
  if (text.length <= maxOutputChars) return text;
  return `${text.slice(0, maxOutputChars)}\n[output cut: ${text.length - maxOutputChars} more characters not shown]`;
}
