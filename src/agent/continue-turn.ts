import type { SuspendedCall, SuspendedDelegation } from '../approvals/suspended-turn.js';
import { createShortId } from '../events/create-id.js';
import type { ChatMessage } from '../model/chat-message.js';
import { executeCalls } from './execute-calls.js';
import type { RuntimeDependencies } from './runtime-dependencies.js';
import { delegationFor, deliverTurn, placeholdersFor, suspend } from './turn-flow.js';
import type { TurnScope } from './turn-scope.js';

/** How a suspended turn goes on: the approved call to run, and the results of the calls that waited (by call id). */
export type Continuation = {
  /** The argument hash a person approved once: the waiting call runs under it. */
  readonly approvedOnce: string | undefined;
  /** Results that replace placeholders: a refusal, a person's answer, sub-tasks' answers. */
  readonly settled: ReadonlyMap<string, string>;
};

/** Runs the waiting call (or its refusal) and the calls behind it, puts the results in the history, and lets the turn finish. */
export async function continueTurn(deps: RuntimeDependencies, suspended: SuspendedCall | SuspendedDelegation, scope: TurnScope, continuation: Continuation): Promise<void> {
  const { approvedOnce, settled } = continuation;
  const calls = approvedOnce === undefined ? suspended.remainingCalls : [suspended.call, ...suspended.remainingCalls];
  const elicitationAnswer = suspended.kind === 'question' ? suspended.elicitation?.answer : undefined;
  // "Once" covers exactly the call shown on the card: an identical call after it asks again.
  const delegation = delegationFor(deps, scope);
  // The approved call can be long: a cancel of the session (TurnControl) aborts it as it would the turn's own calls.
  const stop = new AbortController();
  const running = deps.runningTurns?.begin(suspended.sessionKey, stop);
  const batch = await executeCalls({
    signal: stop.signal,
    registry: deps.registry,
    scope,
    calls,
    repeats: new Map(),
    logger: deps.logger,
    approvedFirstCall: approvedOnce,
    reviewer: deps.smartApprovals?.reviewCall,
    ...(elicitationAnswer === undefined ? {} : { firstCallElicitationAnswer: elicitationAnswer }),
    delegation,
  }).finally(() => running?.end());
  // Cancelled while its call ran: the turn goes no further and is never resumed again.
  if (running?.isCancelled() === true) {
    if (suspended.kind === 'approval') await deps.approvals.finishResumption(suspended.id, deps.instanceId);
    await deps.suspensions.delete(suspended.id);
    deps.turnFinished({ causationId: scope.causationId, sessionKey: scope.sessionKey, status: 'cancelled' });
    return;
  }
  const replacements = new Map<string, string>();
  for (const [callId, content] of settled) replacements.set(callId, content);
  for (const result of batch.results) replacements.set(result.toolCallId, result.content);
  const nextId = createShortId();
  if (batch.suspension) for (const placeholder of placeholdersFor(nextId, batch.suspension)) replacements.set(placeholder.toolCallId, placeholder.content);

  await deps.history.update(suspended.sessionKey, (messages) => applyReplacements(messages, replacements, suspended));

  if (batch.suspension) await suspend(deps, scope, batch.suspension, nextId, delegation.left());
  else await deliverTurn(deps, scope, []);

  // Only now is the suspension finished with: the history holds the real results and the turn has answered.
  if (suspended.kind === 'approval') await deps.approvals.finishResumption(suspended.id, deps.instanceId);
  await deps.suspensions.delete(suspended.id);
}

/** Puts real results where placeholders stood; when the chat moved on since, also notes the outcome at the end. */
function applyReplacements(messages: readonly ChatMessage[], replacements: ReadonlyMap<string, string>, suspended: SuspendedCall | SuspendedDelegation): readonly ChatMessage[] {
  let lastReplaced = -1;
  let changed = false;
  const updated = messages.map((message, index) => {
    if (message.role !== 'tool') return message;
    const content = replacements.get(message.toolCallId);
    if (content === undefined) return message;
    lastReplaced = index;
    if (content === message.content) return message;
    changed = true;
    return { ...message, content };
  });
  // Nothing new (a resumption run again after a crash): the note, if any, is there already.
  if (!changed || lastReplaced === -1 || lastReplaced === updated.length - 1) return updated;
  const summary = [...replacements.entries()].map(([id, content]) => `- ${id}: ${content}`).join('\n');
  return [...updated, { role: 'user', content: `[Update from the system, not typed by the user] The ${suspended.kind} ${suspended.id} was settled; results of the calls that waited:\n${summary}` }];
}

