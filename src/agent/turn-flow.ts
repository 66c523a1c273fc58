import { placeholderText, type SuspendedTurn } from '../approvals/suspended-turn.js';
import type { ApprovalCard } from '../events/approval-card.js';
import { createShortId } from '../events/create-id.js';
import { attributionOf } from './attribution-of.js';
import { approvalParties, deliverApprovalCard, suspensionBase } from './approval-parties.js';
import { buildSystemPrompt } from './build-system-prompt.js';
import { cardSummaryFor } from './card-summary-for.js';
import { describeStop } from '../budgets/describe-budget.js';
import { createTurnBudget } from './create-turn-budget.js';
import { holdForBudget } from './hold-for-budget.js';
import type { ChatMessage } from '../model/chat-message.js';
import type { CallSuspension } from './execute-calls.js';
import { formatArguments } from './format-arguments.js';
import { suspendForElicitation } from './elicit-in-chat.js';
import { runTurn } from './run-turn.js';
import { reportingTo, turnSpanAttributes, turnSpanName } from './turn-span-attributes.js';
import type { RuntimeDependencies } from './runtime-dependencies.js';
import type { TurnScope } from './turn-scope.js';
import { createTurnDelegation, subTaskCeiling, type TurnDelegation } from './create-turn-delegation.js';
import { defaultDelegationLimits } from '../policy/plan-delegation.js';
import type { DelegationAmounts } from '../policy/delegation-budget.js';
import { endSubTaskTurn } from './end-sub-task-turn.js';
import { cancelTurn } from './cancel-turn.js';
import { suspendForSubTasks } from './start-sub-tasks.js';

const typingEveryMs = 4000;
/** A turn that answers within this shows no typing indicator: it would only flash before the answer. */
const typingAfterMs = 500;

/** Placeholder tool results for a call that waits and the calls queued behind it. */
export function placeholdersFor(suspensionId: string, suspension: CallSuspension): Extract<ChatMessage, { role: 'tool' }>[] {
  if (suspension.kind === 'delegation') {
    const waiting = suspension.subTasks.map((subTask) => ({ role: 'tool' as const, toolCallId: subTask.callId, toolName: suspension.call.name, content: `Waiting for sub-task ${subTask.name} (${suspensionId}); it has not answered yet.` }));
    const queued = suspension.remaining.map((call) => ({ role: 'tool' as const, toolCallId: call.id, toolName: call.name, content: `Not run yet: queued behind the sub-tasks of ${suspensionId}.` }));
    return [...waiting, ...queued];
  }
  return [suspension.call, ...suspension.remaining].map((call, index) => ({
    role: 'tool' as const,
    toolCallId: call.id,
    toolName: call.name,
    content: placeholderText(suspensionId, suspension.kind, index === 0),
  }));
}

/**
 * Runs the loop over the session's history plus `newMessages`, stores what it added, and answers in
 * the chat: the final text, a card or question when it suspends, or a plain sentence when the model
 * could not be reached. `history` is the session's history when the caller started reading it already.
 */
export async function runAndDeliver(deps: RuntimeDependencies, scope: TurnScope, newMessages: readonly ChatMessage[], history?: Promise<readonly ChatMessage[]>): Promise<void> {
  if (deps.tracer === undefined) return deliverTurn(deps, scope, newMessages, history);
  return deps.tracer.inSpan({ name: turnSpanName(deps.botName), attributes: turnSpanAttributes(deps.botName, scope) }, (span) => deliverTurn(reportingTo(deps, span), scope, newMessages, history));
}

/** runAndDeliver without a span of its own: a resumed turn runs it inside the span that continues its trace. */
export async function deliverTurn(deps: RuntimeDependencies, scope: TurnScope, newMessages: readonly ChatMessage[], history?: Promise<readonly ChatMessage[]>): Promise<void> {
  const messages = deps.messagesFor(scope.channel);
  // A new attended turn past a budget's soft limit waits for the card; a used-up budget stops it inside the loop, before the model.
  if (deps.budgets?.enforced && newMessages.length > 0 && !scope.unattended && scope.subTask === undefined) {
    const check = await deps.budgets.check(attributionOf(scope), { attended: true });
    if (check.kind === 'soft') {
      await holdForBudget(deps, scope, newMessages, check.status);
      return;
    }
  }
  const typing = startTyping(deps, scope);
  const suspensionId = createShortId();
  // A turn that runs too long (a slow model, many tool calls) gives its session lane back.
  const deadline = new AbortController();
  // A sub-task stops at its slice's seconds too.
  const deadlineTimer = setTimeout(() => deadline.abort(), Math.min(deps.turnTimeoutMs, (subTaskCeiling(scope)?.seconds ?? Number.POSITIVE_INFINITY) * 1000));
  // A cancel of the session (TurnControl) aborts the same deadline: the model call and tools stop as on a timeout.
  const running = deps.runningTurns?.begin(scope.sessionKey, deadline, scope.queuedAt);
  try {
    // Cancelled while its event waited in the lane: it does not start.
    if (running?.isCancelled() === true && scope.subTask === undefined) return await endCancelled(deps, scope, newMessages);
    const earlier = await (history ?? deps.history.load(scope.sessionKey));
    const remembered = await recallForTurn(deps, scope, newMessages, earlier);
    const streaming = deps.streamingChannels?.has(scope.channel) === true;
    let draft = '';
    const delegation = delegationFor(deps, scope);
    const outcome = await runTurn({
      model: deps.model,
      registry: deps.registry,
      logger: deps.logger,
      scope,
      systemPrompt: buildSystemPrompt({ basePrompt: deps.systemPrompt, now: deps.now(), timezone: deps.timezone, channel: scope.channel, userName: scope.userName, origin: scope.origin, isGroup: scope.isGroup }) + remembered,
      messages: [...earlier, ...newMessages],
      maxIterations: deps.maxIterations,
      signal: deadline.signal,
      onTextDelta: streaming
        ? (delta) => {
            draft += delta;
            void deps.outbox.send({ type: 'reply', target: scope.target, text: draft, kind: 'progress', causationId: scope.causationId });
          }
        : undefined,
      onModelCall: () => {
        // Each model call streams a new answer; the draft shows only the current one, as the final reply will.
        draft = '';
      },
      placeholders: (suspension) => placeholdersFor(suspensionId, suspension),
      reviewer: deps.smartApprovals?.reviewCall,
      budget: createTurnBudget(deps.budgets, scope),
      delegation,
    });
    // A cancelled turn sends nothing more: no answer, no card (its history keeps what was asked). A sub-task's
    // parent still reads that it stopped, below.
    if (running?.isCancelled() === true && scope.subTask === undefined) return await endCancelled(deps, scope, newMessages);
    // A turn a budget stopped before any model call leaves no unanswered message behind in the history.
    if (outcome.status !== 'stopped' || outcome.newMessages.length > 0) await deps.history.append(scope.sessionKey, [...newMessages, ...outcome.newMessages]);
    // A sub-task answers its parent, never the chat (its cards still go to the chat's approvers).
    if (scope.subTask !== undefined && outcome.status !== 'suspended') return await endSubTaskTurn(deps, { ...scope, subTask: scope.subTask }, outcome, { timedOut: deadline.signal.aborted, left: delegation.left() });
    switch (outcome.status) {
      case 'completed': {
        const answer = outcome.text.trim() === '' ? '(The model returned an empty answer.)' : outcome.text;
        const text = scope.replyPrefix === undefined ? answer : `${scope.replyPrefix}\n\n${answer}`;
        const delivery = await deps.outbox.send({ type: 'reply', target: scope.target, text, kind: 'final', causationId: scope.causationId });
        if (!delivery.ok) deps.logger.warn({ traceId: scope.traceId, error: delivery.error }, 'final reply was not delivered');
        deps.turnFinished({ causationId: scope.causationId, sessionKey: scope.sessionKey, status: 'completed', text, delivery });
        await rememberAfterTurn(deps, scope, outcome.text);
        return;
      }
      case 'suspended': {
        await suspend(deps, scope, outcome.suspension, suspensionId, delegation.left());
        // A cancel that came while the card was being opened found no suspension yet: it is closed now.
        const cancelledBy = running?.cancelledBy();
        if (cancelledBy !== undefined) await cancelTurn(deps, { sessionKey: scope.sessionKey, by: cancelledBy });
        return;
      }
      case 'stopped': {
        const text = describeStop(outcome.stop, messages, { currency: deps.budgets?.currency ?? '', timezone: deps.timezone });
        deps.logger.info({ traceId: scope.traceId, stop: outcome.stop.kind }, 'turn stopped by a budget or the per-turn ceiling');
        // A scheduled run is not answered in its chat: its run record says it was skipped, and why.
        const failure = { kind: 'budget-exhausted' as const, ...(outcome.stop.kind === 'per-turn' ? {} : { resetsAt: outcome.stop.status.resetsAt }) };
        const delivery = scope.origin === 'schedule' ? undefined : await deps.outbox.send({ type: 'reply', target: scope.target, text, kind: 'final', causationId: scope.causationId, failure });
        const reason = outcome.stop.kind === 'per-turn' ? {} : { reason: 'budget' as const };
        deps.turnFinished({ causationId: scope.causationId, sessionKey: scope.sessionKey, status: outcome.stop.kind === 'per-turn' ? 'failed' : 'refused', text, ...(delivery ? { delivery } : {}), ...reason });
        return;
      }
      case 'model-failed': {
        deps.logger.warn({ traceId: scope.traceId, failure: outcome.failure }, 'model call failed');
        const text = deadline.signal.aborted ? messages.turnTimedOut : messages.modelUnavailable(outcome.failure.kind);
        const delivery = await deps.outbox.send({ type: 'reply', target: scope.target, text, kind: 'final', causationId: scope.causationId, failure: { kind: 'model-unavailable' } });
        deps.turnFinished({ causationId: scope.causationId, sessionKey: scope.sessionKey, status: 'failed', text, delivery });
        return;
      }
    }
  } finally {
    running?.end();
    clearTimeout(deadlineTimer);
    typing.stop();
  }
}

/** Ends a cancelled turn: nothing is sent; its history keeps what was asked (not what the model began). */
async function endCancelled(deps: RuntimeDependencies, scope: TurnScope, newMessages: readonly ChatMessage[]): Promise<void> {
  if (newMessages.length > 0) await deps.history.append(scope.sessionKey, newMessages);
  deps.turnFinished({ causationId: scope.causationId, sessionKey: scope.sessionKey, status: 'cancelled' });
}

/** The facts and past exchanges this turn may see, as a system prompt section; '' without memory or when the store does not answer (the turn goes on without them). */
async function recallForTurn(deps: RuntimeDependencies, scope: TurnScope, newMessages: readonly ChatMessage[], earlier: readonly ChatMessage[]): Promise<string> {
  if (deps.memory === undefined) return '';
  const query = scope.authoredText ?? newMessages.map((message) => (message.role === 'user' ? message.content : '')).join('\n');
  try {
    // With the history: exchanges still in it are in the context already; only those compacted or dropped are recalled here.
    return await deps.memory.recall({ channel: scope.channel, chatId: scope.chatId, userId: scope.userId, isGroup: scope.isGroup, query, sessionKey: scope.sessionKey, history: earlier });
  } catch (error) {
    deps.logger.warn({ traceId: scope.traceId, error }, 'remembered facts could not be read; the turn goes on without them');
    return '';
  }
}

/**
 * After the answer went out: facts from the sender's own words (a person's message only), the exchange (those words
 * and the final answer) archived for recall, then compaction of the history when it passed its budget. A failure
 * keeps the history whole; compaction is tried after the next turn.
 */
async function rememberAfterTurn(deps: RuntimeDependencies, scope: TurnScope, answer: string): Promise<void> {
  const memory = deps.memory;
  if (memory === undefined) return;
  try {
    const text = scope.authoredText?.trim() ?? '';
    if (scope.origin === 'user' && text !== '') {
      const route = deps.approvalRouteFor({ channel: scope.channel, requesterId: scope.userId, origin: scope.target, unattended: false });
      const trust = route.approvers.includes(scope.userId) ? 'approver' : scope.isGroup ? 'group-member' : 'allowed-user';
      const source = { ...(scope.target.replyToMessageId === undefined ? {} : { messageId: scope.target.replyToMessageId }), authorId: scope.userId, authorName: scope.userName, channel: scope.channel, chatId: scope.chatId, at: deps.now().toISOString() };
      const extraction = await memory.extractFacts({ text, source, trust, isGroup: scope.isGroup }, attributionOf(scope));
      if (extraction.kind !== 'recorded') deps.logger.warn({ traceId: scope.traceId, extraction: extraction.kind }, 'no facts recorded from this message');
      if (answer.trim() !== '') await memory.archiveExchange({ sessionKey: scope.sessionKey, isGroup: scope.isGroup, question: text, answer, source }, attributionOf(scope));
    }
    const outcome = await memory.compactor.compactIfNeeded(scope.sessionKey, attributionOf(scope));
    if (outcome.kind === 'compacted') deps.logger.info({ traceId: scope.traceId, spanLength: outcome.spanLength, summaryChars: outcome.summaryChars }, 'history compacted');
  } catch (error) {
    deps.logger.warn({ traceId: scope.traceId, error }, 'memory after the turn failed; the history is kept whole');
  }
}

/** Saves the suspended turn and shows the person a card (approval) or a question. */
export async function suspend(deps: RuntimeDependencies, scope: TurnScope, suspension: CallSuspension, suspensionId: string, allowanceLeft: DelegationAmounts): Promise<void> {
  const traceparent = deps.tracer?.traceparent();
  const base = { ...suspensionBase(scope, suspensionId, deps.now()), ...(traceparent === undefined ? {} : { traceparent }), allowanceLeft, call: suspension.call, remainingCalls: suspension.remaining };
  if (suspension.kind === 'question' && suspension.elicitation !== undefined) {
    await suspendForElicitation(deps, scope, base, { ...suspension, elicitation: suspension.elicitation });
    return;
  }
  if (suspension.kind === 'delegation') {
    await suspendForSubTasks(deps, scope, base, suspension);
    return;
  }
  if (suspension.kind === 'question') {
    const record: SuspendedTurn = { ...base, kind: 'question', question: suspension.question, options: suspension.options };
    await deps.suspensions.set(record.id, record);
    await deps.openQuestions.set(scope.sessionKey, record.id);
    await deps.outbox.send({ type: 'question-asked', target: scope.target, questionId: record.id, text: suspension.question, options: suspension.options, causationId: scope.causationId });
    deps.turnFinished({ causationId: scope.causationId, sessionKey: scope.sessionKey, status: 'suspended', text: suspension.question });
    return;
  }

  const parties = approvalParties(deps, scope);
  const summary = suspension.tool.describeForApproval?.(suspension.input, { timezone: deps.timezone }) ?? `Run ${suspension.tool.name} with the arguments below.`;
  const argumentsText = formatArguments(suspension.input);
  const approval = await deps.approvals.open({
    toolName: suspension.tool.name,
    risk: suspension.tool.risk,
    input: suspension.input,
    argumentsHash: suspension.argumentsHash,
    summary,
    reason: suspension.reason,
    traceId: scope.traceId,
    ...parties.record,
  });
  // The placeholders were written with a provisional id; the record's id is what people type, so rewrite them.
  await deps.history.update(scope.sessionKey, (messages) => renamePlaceholders(messages, suspensionId, approval.id));
  await deps.suspensions.set(approval.id, { ...base, id: approval.id, kind: 'approval' });

  const explanation = await deps.explainRisk({ toolName: approval.toolName, summary, argumentsText, risk: approval.risk, attribution: attributionOf(scope, 'risk-explainer') });
  const card: ApprovalCard = {
    approvalId: approval.id,
    toolName: approval.toolName,
    summary: cardSummaryFor(scope, summary, deps.messagesFor(scope.channel)),
    argumentsText,
    risk: approval.risk,
    requestedBy: scope.userName,
    expiresAt: approval.expiresAt,
    explanation,
    ...(suspension.reviewerNote === undefined ? {} : { reviewerNote: suspension.reviewerNote }),
    choices: approval.choices,
  };
  await deliverApprovalCard(deps, scope, parties.targets, card);
  deps.turnFinished({ causationId: scope.causationId, sessionKey: scope.sessionKey, status: 'suspended', text: `Waiting for approval ${approval.id}: ${summary}` });
}

/** What this run of the loop may hand to sub-tasks (the `delegate` tool). */
export function delegationFor(deps: RuntimeDependencies, scope: TurnScope): TurnDelegation {
  return createTurnDelegation({ scope, budgets: deps.budgets, turnTimeoutMs: deps.turnTimeoutMs, limits: deps.delegation ?? defaultDelegationLimits, agentId: deps.botName });
}

function renamePlaceholders(messages: readonly ChatMessage[], from: string, to: string): readonly ChatMessage[] {
  return messages.map((message) => (message.role === 'tool' && message.content.includes(from) ? { ...message, content: message.content.split(from).join(to) } : message));
}

function startTyping(deps: RuntimeDependencies, scope: TurnScope): { stop(): void } {
  if (scope.unattended) return { stop() {} };
  const send = () => void deps.outbox.send({ type: 'typing', target: scope.target }).catch(() => undefined);
  let repeat: NodeJS.Timeout | undefined;
  const first = setTimeout(() => {
    send();
    repeat = setInterval(send, typingEveryMs);
    repeat.unref();
  }, typingAfterMs);
  first.unref();
  return {
    stop() {
      clearTimeout(first);
      clearInterval(repeat);
    },
  };
}
