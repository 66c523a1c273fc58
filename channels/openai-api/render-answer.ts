import { assertNever } from '../../src/events/assert-never.js';
import type { ApprovalCard, ApprovalChoice } from '../../src/events/approval-card.js';
import type { Answer } from './pending-answers.js';

/** The numbered replies the agent reads on channels without buttons (src/agent/pick-numbered-approval.ts). */
const numberedChoice: Readonly<Record<Exclude<ApprovalChoice, 'session'>, string>> = { once: '1', always: '2', deny: '3' };
const choiceWords: Readonly<Record<ApprovalChoice, string>> = { once: 'approve once', session: 'approve for this session', always: 'always allow', deny: 'deny' };

/** What an answer says in the assistant message's content, and the card it carries (also in the `echo` field). Pure. */
export function renderAnswer(answer: Answer): { readonly content: string; readonly approval?: { readonly id: string; readonly summary: string; readonly tool: string; readonly expiresAt: string } } {
  switch (answer.kind) {
    case 'reply':
      return { content: answer.text };
    case 'approval':
      return { content: renderCard(answer.card), approval: { id: answer.card.approvalId, summary: answer.card.summary, tool: answer.card.toolName, expiresAt: answer.card.expiresAt } };
    case 'question':
      return { content: [answer.text, ...answer.options.map((option, index) => `${index + 1}. ${option}`)].join('\n') };
    case 'finished':
      return { content: answer.text ?? `The turn ended (${answer.status}).` };
    case 'timeout':
      return { content: 'Still working on it: the answer will come with your next message in this conversation.' };
    default:
      return assertNever(answer, 'answer');
  }
}

/** The approval card as text: what would run, why, and how to decide it here or over HTTP. Pure. */
export function renderCard(card: ApprovalCard): string {
  const replies = card.choices.flatMap((choice) => (choice === 'session' ? [] : [`${numberedChoice[choice]} = ${card.choiceLabels?.[choice] ?? choiceWords[choice]}`]));
  return [
    `Approval needed (${card.approvalId}): ${card.summary}`,
    `Tool: ${card.toolName} (risk ${card.risk}), requested by ${card.requestedBy}, expires ${card.expiresAt}.`,
    card.argumentsText === '' ? undefined : `Arguments: ${card.argumentsText}`,
    card.explanation === '' ? undefined : `The assistant explains: ${card.explanation}`,
    card.reviewerNote === undefined ? undefined : `Reviewer: ${card.reviewerNote}`,
    `Reply ${replies.join(', ')}; or POST /v1/approvals/${card.approvalId} with {"decision":"approve"} or {"decision":"deny"}.`,
  ]
    .filter((line) => line !== undefined)
    .join('\n');
}
