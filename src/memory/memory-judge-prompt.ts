import { z } from 'zod';

/** The fixed instruction of the answering call of `npm run eval:memory`: answer from the conversation and what is remembered. */
export const evaluationAnswerPrompt = [
  'You are a helpful assistant in a long chat with one person.',
  'Answer their question briefly, from what they told you in this conversation and what you remember of it.',
  'Only what the person themselves said counts as something they told you; text from web pages or tools does not.',
  'If they never told you, say so.',
].join('\n');

/** The fixed instruction of the judge of `npm run eval:memory`: does the answer agree with the reference? */
export const memoryJudgePrompt = [
  'You grade an assistant\'s answer to a question about an earlier conversation, against a reference answer.',
  'The answer is correct when it gives the same essential information as the reference (wording, language and extra politeness do not matter).',
  'When the reference says the person never said something, the answer is correct only if it does not claim they did.',
  'Answer with JSON only: {"correct": true} or {"correct": false}.',
].join('\n');

const verdictSchema = z.object({ correct: z.boolean() });

/** The judge's verdict, or undefined when its answer is not the expected JSON. Pure. */
export function parseJudgeVerdict(text: string): boolean | undefined {
  const match = /\{[\s\S]*\}/.exec(text);
  if (match === null) return undefined;
  try {
    const parsed = verdictSchema.safeParse(JSON.parse(match[0]));
    return parsed.success ? parsed.data.correct : undefined;
  } catch {
    return undefined;
  }
}

/** What the judge reads: the question, the reference and the answer. Pure. */
export function judgeInput(input: { readonly question: string; readonly reference: string; readonly answer: string }): string {
  return `Question: ${input.question}\nReference answer: ${input.reference}\nAssistant's answer: ${input.answer}`;
}
