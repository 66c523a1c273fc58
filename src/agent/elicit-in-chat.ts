import type { PendingElicitation, SuspendedCall, SuspendedTurn } from '../approvals/suspended-turn.js';
import type { Target } from '../events/target.js';
import type { ElicitationAction } from '../registry/elicitation.js';
import type { ElicitationMessages } from '../i18n/elicitation-messages.js';
import { approvalParties } from './approval-parties.js';
import { askField, canAcceptRest, type ElicitationField, formatValue, listFields, readFieldReply, withDefaults } from './elicitation-fields.js';
import type { CallSuspension } from './execute-calls.js';
import type { RuntimeDependencies, TurnDelivery, TurnState } from './runtime-dependencies.js';
import type { TurnScope } from './turn-scope.js';

type ElicitationSuspension = Extract<CallSuspension, { kind: 'question' }> & { readonly elicitation: NonNullable<Extract<CallSuspension, { kind: 'question' }>['elicitation']> };

/** A reply to the field asked now, from a button (its label) or typed text. */
export type ElicitationReply = {
  readonly suspended: SuspendedCall & { readonly elicitation: PendingElicitation };
  readonly text: string;
  readonly answeredById: string;
  readonly answeredByName: string;
  readonly replyTarget: Target;
  readonly acknowledgementId?: string;
};

/**
 * The id a field's question goes out under: the suspension's id and the field's position, so a button left on an
 * earlier field's message (answered by typing) is refused instead of being read as a choice of the field asked now.
 */
export function fieldQuestionId(suspensionId: string, fieldIndex: number): string {
  return `${suspensionId}-${fieldIndex}`;
}

/** The suspension a question id belongs to, and the field it asked (for an MCP server's request). Pure. */
export function splitQuestionId(questionId: string): { readonly suspensionId: string; readonly fieldIndex?: number } {
  const match = /^([^-]+)-(\d+)$/.exec(questionId);
  return match?.[1] !== undefined && match[2] !== undefined ? { suspensionId: match[1], fieldIndex: Number(match[2]) } : { suspensionId: questionId };
}

/** Whether this person may answer the question: its answerers for an MCP server's request, else the person asked. Pure. */
export function mayAnswerQuestion(suspended: SuspendedCall, senderId: string): boolean {
  return suspended.elicitation === undefined ? suspended.userId === senderId : suspended.elicitation.answerers.includes(senderId);
}

/**
 * Suspends the turn on an MCP server's request for input and asks its first field in the chat where the turn
 * started. Above `read_only`, the chat's approvers answer (as they would decide a card); else the person whose turn it is.
 */
export async function suspendForElicitation(deps: RuntimeDependencies, scope: TurnScope, base: Omit<SuspendedCall, 'kind'>, suspension: ElicitationSuspension): Promise<void> {
  const { form, argumentsHash } = suspension.elicitation;
  const parties = form.risk === 'read_only' ? undefined : approvalParties(deps, scope);
  const answerers = parties?.record.approvers ?? [scope.userId];
  // The chat where the turn started, and where approval cards go (an approver's private chat) when others answer.
  const targets = [scope.target, ...(parties?.targets ?? []).filter((target) => target.channel !== scope.target.channel || target.chatId !== scope.target.chatId)];
  const pending: PendingElicitation = { form, argumentsHash, fieldIndex: 0, content: {}, answerers, typedChoices: deps.numberedChannels?.has(scope.channel) !== true };
  const question = questionFor(pending, deps.messagesFor(scope.channel).elicitation);
  const record: SuspendedTurn = { ...base, kind: 'question', question: question.text, options: question.options, elicitation: pending };
  await deps.suspensions.set(record.id, record);
  await deps.openQuestions.set(scope.sessionKey, record.id);
  for (const target of targets) await deps.outbox.send({ type: 'question-asked', target, questionId: fieldQuestionId(record.id, 0), text: question.text, options: question.options, causationId: scope.causationId });
  deps.turnFinished({ causationId: scope.causationId, sessionKey: scope.sessionKey, status: 'suspended', text: question.text });
}

/**
 * Takes a reply to the field asked now: a bad one is asked again with the reason, a good one moves to the next field,
 * the last one (or Decline, Cancel) records the answer and resumes the turn, whose call then answers the server.
 */
export async function answerElicitation(deps: TurnState & TurnDelivery, input: ElicitationReply): Promise<void> {
  const { suspended } = input;
  const pending = suspended.elicitation;
  const messages = deps.messagesFor(input.replyTarget.channel);
  const acknowledge = (text: string, isAlert: boolean) =>
    input.acknowledgementId === undefined ? undefined : deps.outbox.send({ type: 'action-answered', target: input.replyTarget, acknowledgementId: input.acknowledgementId, text, isAlert });
  if (!mayAnswerQuestion(suspended, input.answeredById)) {
    await (acknowledge(messages.questionNotYours, true) ?? deps.outbox.send({ type: 'reply', target: input.replyTarget, text: messages.questionNotYours, kind: 'message' }));
    return;
  }
  const fields = listFields(pending.form.requestedSchema);
  const field = fields[pending.fieldIndex];
  const reply = readFieldReply(field, input.text, suspended.options ?? [], messages.elicitation, canAcceptRest(fields, pending.fieldIndex));
  switch (reply.kind) {
    case 'invalid': {
      await acknowledge(reply.reason, true);
      await ask(deps, input, pending, messages.elicitation, reply.reason);
      return;
    }
    case 'decline':
    case 'cancel':
      await finish(deps, input, reply.kind, undefined);
      return;
    case 'accept-rest':
      await finish(deps, input, 'accept', withDefaults(fields, pending.content));
      return;
    case 'skip':
    case 'value': {
      const content = field === undefined || reply.kind === 'skip' || reply.value === undefined ? pending.content : { ...pending.content, [field.name]: reply.value };
      const next = pending.fieldIndex + 1;
      if (field !== undefined && next < fields.length) {
        const moved = { ...pending, fieldIndex: next, content };
        const question = questionFor(moved, messages.elicitation);
        let taken = false;
        await deps.suspensions.update(suspended.id, (current) => {
          if (current?.kind !== 'question' || current.elicitation?.fieldIndex !== pending.fieldIndex || current.answer !== undefined) return current;
          taken = true;
          return { ...current, question: question.text, options: question.options, elicitation: moved };
        });
        if (!taken) {
          await acknowledge(messages.questionNotFound, true);
          return;
        }
        await acknowledge(`${field.label}: ${reply.kind === 'skip' ? '-' : formatValue(reply.value)}`, false);
        await deps.outbox.send({ type: 'question-asked', target: askTarget(input), questionId: fieldQuestionId(suspended.id, next), text: question.text, options: question.options, causationId: suspended.causationId });
        return;
      }
      await finish(deps, input, 'accept', withDefaults(fields, content));
      return;
    }
  }
}

/** The question for the field asked now. Pure. */
function questionFor(pending: PendingElicitation, strings: ElicitationMessages, retryReason?: string): { readonly text: string; readonly options: readonly string[] } {
  const fields = listFields(pending.form.requestedSchema);
  const field: ElicitationField | undefined = fields[pending.fieldIndex];
  return askField({
    server: pending.form.server,
    ...(pending.form.asker === undefined ? {} : { asker: pending.form.asker }),
    message: pending.form.message,
    field,
    position: `(${pending.fieldIndex + 1}/${fields.length})`,
    typedChoices: pending.typedChoices,
    canAcceptRest: canAcceptRest(fields, pending.fieldIndex),
    strings,
    ...(retryReason === undefined ? {} : { retryReason }),
  });
}

async function ask(deps: TurnDelivery, input: ElicitationReply, pending: PendingElicitation, strings: ElicitationMessages, retryReason: string): Promise<void> {
  const question = questionFor(pending, strings, retryReason);
  await deps.outbox.send({ type: 'question-asked', target: askTarget(input), questionId: fieldQuestionId(input.suspended.id, pending.fieldIndex), text: question.text, options: question.options, causationId: input.suspended.causationId });
}

/** The next question goes where the person answered (the origin chat, or an approver's own chat). */
function askTarget(input: ElicitationReply): Target {
  const { channel, chatId, threadId } = input.replyTarget;
  return { channel, chatId, ...(threadId === undefined ? {} : { threadId }) };
}

/** Records the final answer (once: a compare-and-set on the field asked) and wakes the turn. */
async function finish(deps: TurnState & TurnDelivery, input: ElicitationReply, action: ElicitationAction, content: Readonly<Record<string, unknown>> | undefined): Promise<void> {
  const { suspended } = input;
  const pending = suspended.elicitation;
  const summary = action === 'accept' ? `accept${content && Object.keys(content).length > 0 ? ` (${Object.entries(content).map(([name, value]) => `${name}: ${formatValue(value)}`).join(', ')})` : ''}` : action;
  const answer = { elicitationId: pending.form.elicitationId, fingerprint: pending.form.fingerprint, action, ...(content === undefined ? {} : { content }) };
  let accepted = false;
  const updated = await deps.suspensions.update(suspended.id, (current) => {
    if (current?.kind !== 'question' || current.answer !== undefined || current.elicitation?.fieldIndex !== pending.fieldIndex) return current;
    accepted = true;
    return { ...current, answer: summary, answeredBy: input.answeredByName, elicitation: { ...current.elicitation, answer } };
  });
  const messages = deps.messagesFor(input.replyTarget.channel);
  if (!accepted || !updated) {
    if (input.acknowledgementId !== undefined) await deps.outbox.send({ type: 'action-answered', target: input.replyTarget, acknowledgementId: input.acknowledgementId, text: messages.questionNotFound, isAlert: true });
    return;
  }
  const line = pending.form.asker === 'agent' ? messages.elicitation.sentToAgent(pending.form.server, summary) : messages.elicitation.sentToServer(pending.form.server, summary);
  if (input.acknowledgementId !== undefined) await deps.outbox.send({ type: 'action-answered', target: input.replyTarget, acknowledgementId: input.acknowledgementId, text: line, isAlert: false });
  await deps.resumeRequests.request({ suspensionId: updated.id, sessionKey: updated.sessionKey, target: updated.target, traceId: updated.traceId, origin: updated.origin, unattended: updated.unattended });
}
