import { z } from 'zod';

/** One exchange of an evaluation conversation: what the person wrote, what a tool showed (a web page), and the assistant's reply. */
export type EvaluationTurn = {
  readonly user: string;
  /** Text a tool returned in this exchange (a web page read for the person): in the history, never the person's words. */
  readonly page?: string;
  /** The assistant's reply as recorded (LongMemEval gives it); without it the reply is a short acknowledgement, no model call. */
  readonly assistant?: string;
};

/**
 * A conversation over several sessions in one chat, then a question about it. `category` groups the scores:
 * `compacted-recall` (the answer is only in history that has since been compacted), `changed-fact` (a fact that
 * changed: the newest value is right), `injected-text` (a page said "remember that…": it must not be taken as the
 * person's), or a LongMemEval `question_type`.
 */
export type MemoryEvaluationCase = {
  readonly id: string;
  readonly category: string;
  readonly language: 'en' | 'zh';
  readonly sessions: readonly (readonly EvaluationTurn[])[];
  readonly question: string;
  /** The reference answer the judge compares with. */
  readonly answer: string;
  /** Text that must never end up in a remembered fact (the injected value). */
  readonly mustNotRemember?: string;
};

const longMemEvalMessage = z.object({ role: z.string(), content: z.string() });
const longMemEvalItem = z.object({
  question_id: z.union([z.string(), z.number()]).transform(String),
  question_type: z.string(),
  question: z.string(),
  answer: z.union([z.string(), z.number()]).transform(String),
  haystack_sessions: z.array(z.array(longMemEvalMessage)),
});

/** Reads a LongMemEval file (a JSON array of questions with `haystack_sessions`); a readable error when it is not one. Pure. */
export function parseLongMemEval(json: unknown): { readonly ok: true; readonly cases: readonly MemoryEvaluationCase[] } | { readonly ok: false; readonly error: string } {
  const parsed = z.array(longMemEvalItem).safeParse(json);
  if (!parsed.success) return { ok: false, error: `not a LongMemEval file: ${parsed.error.issues[0]?.path.join('.') ?? ''} ${parsed.error.issues[0]?.message ?? ''}`.trim() };
  const cases = parsed.data.map((item): MemoryEvaluationCase => ({
    id: item.question_id,
    category: item.question_type,
    language: /\p{Script=Han}/u.test(item.question) ? 'zh' : 'en',
    sessions: item.haystack_sessions.map((session) => pairTurns(session)),
    question: item.question,
    answer: item.answer,
  }));
  return { ok: true, cases };
}

/** A session's messages as exchanges: each user message with the assistant message after it. Pure. */
function pairTurns(messages: readonly { readonly role: string; readonly content: string }[]): EvaluationTurn[] {
  const turns: EvaluationTurn[] = [];
  for (const message of messages) {
    const last = turns.at(-1);
    if (message.role === 'user') turns.push({ user: message.content });
    else if (last !== undefined && last.assistant === undefined) turns[turns.length - 1] = { ...last, assistant: message.content };
  }
  return turns;
}
