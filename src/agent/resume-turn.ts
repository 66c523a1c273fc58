import type { PendingApproval } from '../approvals/pending-approval.js';
import type { SuspendedTurn } from '../approvals/suspended-turn.js';
import type { TurnResumed } from '../events/inbound-event.js';
import type { ChatMessage } from './chat-message.js';
import { executeCalls } from './execute-calls.js';
import type { RuntimeDependencies } from './runtime-dependencies.js';
import { placeholdersFor, runAndDeliver, suspend } from './turn-flow.js';
import type { TurnScope } from './turn-scope.js';
import { createShortId } from '../events/create-id.js';

/**
 * Continues a suspended turn from the store (also in a new process after a restart): runs or refuses
 * the waiting call, runs the calls queued behind it, replaces their placeholder results in the
 * history, and lets the model finish the turn in the origin chat. Runs in the origin session's lane.
 */
export async function resumeTurn(deps: RuntimeDependencies, event: TurnResumed): Promise<void> {
  const suspended = await deps.suspensions.get(event.suspensionId);
  if (!suspended) {
    deps.logger.debug({ suspensionId: event.suspensionId }, 'nothing to resume (already resumed)');
    return;
  }
  let firstResult: string;
  let approvedActions = suspended.approvedActions;
  if (suspended.kind === 'approval') {
    const approval = await deps.approvals.get(suspended.id);
    if (!approval || approval.status === 'pending') return;
    if (approval.status === 'approved') approvedActions = [...approvedActions, approval.argumentsHash];
    firstResult = approval.status === 'approved' ? '' : refusalText(approval);
  } else {
    if (suspended.answer === undefined) return;
    firstResult = `The person (${suspended.answeredBy ?? suspended.userName}) answered: ${suspended.answer}`;
    await deps.openQuestions.update(suspended.sessionKey, (current) => (current === suspended.id ? undefined : current));
  }
  // Claim it: from here on this suspension is resumed exactly once.
  await deps.suspensions.delete(suspended.id);

  const scope = scopeFrom(deps, suspended, approvedActions, event.id);
  const calls = firstResult === '' ? [suspended.call, ...suspended.remainingCalls] : suspended.remainingCalls;
  const batch = await executeCalls({ registry: deps.registry, scope, calls, repeats: new Map(), logger: deps.logger });
  const replacements = new Map<string, string>();
  if (firstResult !== '') replacements.set(suspended.call.id, firstResult);
  for (const result of batch.results) replacements.set(result.toolCallId, result.content);
  const nextId = createShortId();
  if (batch.suspension) for (const placeholder of placeholdersFor(nextId, batch.suspension)) replacements.set(placeholder.toolCallId, placeholder.content);

  await deps.history.update(suspended.sessionKey, (messages) => applyReplacements(messages, replacements, suspended));

  if (batch.suspension) {
    await suspend(deps, scope, batch.suspension, nextId);
    return;
  }
  await runAndDeliver(deps, scope, []);
}

/** Puts real results where placeholders stood; when the chat moved on since, also notes the outcome at the end. */
function applyReplacements(messages: readonly ChatMessage[], replacements: ReadonlyMap<string, string>, suspended: SuspendedTurn): readonly ChatMessage[] {
  let lastReplaced = -1;
  const updated = messages.map((message, index) => {
    if (message.role !== 'tool') return message;
    const content = replacements.get(message.toolCallId);
    if (content === undefined) return message;
    lastReplaced = index;
    return { ...message, content };
  });
  if (lastReplaced === -1 || lastReplaced === updated.length - 1) return updated;
  const summary = [...replacements.entries()].map(([id, content]) => `- ${id}: ${content}`).join('\n');
  return [...updated, { role: 'user', content: `[Update from the system, not typed by the user] The ${suspended.kind} ${suspended.id} was settled; results of the calls that waited:\n${summary}` }];
}

function refusalText(approval: PendingApproval): string {
  switch (approval.status) {
    case 'denied':
      return `Not run: ${approval.decidedBy ?? 'a person'} denied this action${approval.denialReason ? ` (reason: ${approval.denialReason})` : ''}.`;
    case 'expired':
      return 'Not run: nobody approved this action in time (the approval expired).';
    case 'superseded':
      return 'Not run: the approval was superseded.';
    default:
      return 'Not run.';
  }
}

function scopeFrom(deps: RuntimeDependencies, suspended: SuspendedTurn, approvedActions: readonly string[], causationId: string): TurnScope {
  return {
    traceId: suspended.traceId,
    sessionKey: suspended.sessionKey,
    target: suspended.target,
    origin: suspended.origin,
    unattended: suspended.unattended,
    userId: suspended.userId,
    userName: suspended.userName,
    channel: suspended.target.channel,
    chatId: suspended.target.chatId,
    isGroup: suspended.isGroup ?? false,
    causationId: suspended.causationId ?? causationId,
    visibleTools: deps.visibleToolsFor(suspended.target.channel),
    approvedActions,
    services: deps.servicesFor({ sessionKey: suspended.sessionKey, target: suspended.target, userId: suspended.userId }),
    // The turn may have begun in another process before a restart: its side effects are looked up in the store.
    traceStartedHere: false,
  };
}
