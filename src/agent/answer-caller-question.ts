import type { ActionClicked, MessageReceived } from '../events/inbound-event.js';
import type { Target } from '../events/target.js';
import { resolveAnswer } from './answer-question.js';
import type { TurnDelivery, TurnState } from './runtime-dependencies.js';

/**
 * A button press on an MCP caller's question (ask_person): anyone allowed in the chat may answer, once, in the chat it
 * was shown in. False when the press is not for a caller's question (the caller then treats it as an ask_user one).
 */
export async function answerCallerQuestionPress(deps: TurnState & TurnDelivery, input: { readonly event: ActionClicked; readonly replyTarget: Target }): Promise<boolean> {
  const { event, replyTarget } = input;
  const question = await deps.callerQuestions?.get(event.actionId);
  if (!question || !deps.callerQuestions) return false;
  const answer = resolveAnswer(String(Number(event.choice) + 1), question.options);
  const result = await deps.callerQuestions.answer({ id: question.id, chat: replyTarget, answer, answeredById: event.sender.id, answeredByName: event.sender.displayName });
  const messages = deps.messagesFor(event.channel);
  const text = result.ok ? messages.answerRecorded(answer) : messages.questionNotFound;
  await deps.outbox.send({ type: 'action-answered', target: replyTarget, acknowledgementId: event.acknowledgementId, text, isAlert: !result.ok });
  return true;
}

/**
 * A message in a chat where an MCP caller's question waits: it is the answer (a number picks a choice). Questions the
 * model asked with ask_user go first (checked before this); false when no caller's question is open in the chat.
 */
export async function answerCallerQuestionByText(deps: TurnState & TurnDelivery, input: { readonly event: MessageReceived; readonly replyTarget: Target }): Promise<boolean> {
  const { event, replyTarget } = input;
  const question = await deps.callerQuestions?.newestOpenIn({ channel: event.channel, chatId: event.chatId });
  if (!question || !deps.callerQuestions) return false;
  const answer = resolveAnswer(event.text, question.options);
  const result = await deps.callerQuestions.answer({ id: question.id, chat: replyTarget, answer, answeredById: event.sender.id, answeredByName: event.sender.displayName });
  const messages = deps.messagesFor(event.channel);
  await deps.outbox.send({ type: 'reply', target: replyTarget, text: result.ok ? messages.answerRecorded(answer) : messages.questionNotFound, kind: 'final', causationId: event.id });
  return true;
}
