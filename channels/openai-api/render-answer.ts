import { assertNever } from '../../src/events/assert-never.js';
import type { ApprovalCard, ApprovalChoice } from '../../src/events/approval-card.js';
import type { OpenaiApiStrings } from './openai-api-strings.js';
import type { Answer } from './pending-answers.js';

/** The numbered replies the agent reads on channels without buttons (src/agent/pick-numbered-approval.ts). */
const numberedChoice: Readonly<Record<Exclude<ApprovalChoice, 'session'>, string>> = { once: '1', always: '2', deny: '3' };

/** What an answer says in the assistant message's content, and the card it carries (also in the `echo` field). Pure. */
export function renderAnswer(
  answer: Answer,
  strings: OpenaiApiStrings,
): { readonly content: string; readonly approval?: { readonly id: string; readonly summary: string; readonly tool: string; readonly expiresAt: string } } {
  switch (answer.kind) {
    case 'reply':
      return { content: answer.text };
    case 'approval':
      return { content: renderCard(answer.card, strings), approval: { id: answer.card.approvalId, summary: answer.card.summary, tool: answer.card.toolName, expiresAt: answer.card.expiresAt } };
    case 'question':
      return { content: [answer.text, ...answer.options.map((option, index) => `${index + 1}. ${option}`)].join('\n') };
    case 'finished':
      return { content: answer.text ?? strings.apiTurnEnded(answer.status) };
    case 'timeout':
      return { content: strings.apiStillWorking };
    default:
      return assertNever(answer, 'answer');
  }
}

/** The approval card as text: what would run, why, and how to decide it here or over HTTP. Pure. */
export function renderCard(card: ApprovalCard, strings: OpenaiApiStrings): string {
  const replies = card.choices.flatMap((choice) => (choice === 'session' ? [] : [`${numberedChoice[choice]} = ${card.choiceLabels?.[choice] ?? strings.apiChoices[choice]}`]));
  return [
    strings.apiCardTitle(card.approvalId, card.summary),
    strings.apiCardTool({ tool: card.toolName, risk: card.risk, requestedBy: card.requestedBy, expiresAt: card.expiresAt }),
    card.argumentsText === '' ? undefined : strings.apiCardArguments(card.argumentsText),
    card.explanation === '' ? undefined : strings.apiCardExplanation(card.explanation),
    card.reviewerNote === undefined ? undefined : strings.apiCardReviewer(card.reviewerNote),
    strings.apiCardHowToDecide(replies.join(', '), card.approvalId),
  ]
    .filter((line) => line !== undefined)
    .join('\n');
}
