import type { Target } from '../events/target.js';
import type { TurnDelivery, TurnState } from './runtime-dependencies.js';
import { answerElicitation, splitQuestionId } from './elicit-in-chat.js';
import { elicitationWords } from './elicitation-fields.js';

/** An answer to an ask_user question, from a button, a number or free text. */
export type AnswerInput = {
  readonly questionId: string;
  readonly answer: string;
  readonly answeredById: string;
  readonly answeredByName: string;
  readonly replyTarget: Target;
  readonly acknowledgementId?: string;
  /** Skip the acknowledgement (the caller answers itself). */
  readonly silent?: boolean;
  /** The person cancelled the question (`/cancel`) rather than answering it. */
  readonly cancelled?: boolean;
};

/** Maps a reply to an option: `2` → the second option, an option's text → itself, anything else → the text as given. */
export function resolveAnswer(text: string, options: readonly string[]): string {
  const trimmed = text.trim();
  const number = Number(trimmed);
  if (Number.isInteger(number) && number >= 1 && number <= options.length) return options[number - 1] ?? trimmed;
  return options.find((option) => option.toLowerCase() === trimmed.toLowerCase()) ?? trimmed;
}

/** Records the answer on the suspended turn (only the person asked may answer) and wakes the turn. */
export async function answerQuestion(deps: TurnState & TurnDelivery, input: AnswerInput): Promise<void> {
  const { suspensionId, fieldIndex } = splitQuestionId(input.questionId);
  const asked = await deps.suspensions.get(suspensionId);
  if (asked?.kind === 'question' && asked.elicitation !== undefined && asked.answer === undefined) {
    // A button of a field answered before (by typing): not a choice of the field asked now.
    if (fieldIndex !== undefined && fieldIndex !== asked.elicitation.fieldIndex) {
      if (input.acknowledgementId !== undefined) await deps.outbox.send({ type: 'action-answered', target: input.replyTarget, acknowledgementId: input.acknowledgementId, text: deps.messagesFor(input.replyTarget.channel).questionNotFound, isAlert: true });
      return;
    }
    await answerElicitation(deps, { ...input, suspended: { ...asked, elicitation: asked.elicitation }, text: input.cancelled ? elicitationWords.cancel : input.answer });
    return;
  }
  const messages = deps.messagesFor(input.replyTarget.channel);
  const acknowledge = (text: string, isAlert: boolean) =>
    input.silent ? undefined : deps.outbox.send({ type: 'action-answered', target: input.replyTarget, acknowledgementId: input.acknowledgementId, text, isAlert });
  let accepted = false;
  let refusedAsker = false;
  const updated = await deps.suspensions.update(input.questionId, (current) => {
    if (current?.kind !== 'question' || current.answer !== undefined) return current;
    if (current.userId !== input.answeredById) {
      refusedAsker = true;
      return current;
    }
    accepted = true;
    return { ...current, answer: input.answer, answeredBy: input.answeredByName };
  });
  if (!accepted || !updated) {
    await acknowledge(refusedAsker ? messages.questionNotYours : messages.questionNotFound, true);
    return;
  }
  await acknowledge(messages.answerRecorded(input.answer), false);
  await deps.resumeRequests.request({ suspensionId: updated.id, sessionKey: updated.sessionKey, target: updated.target, traceId: updated.traceId, origin: updated.origin, unattended: updated.unattended });
}
