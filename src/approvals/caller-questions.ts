import type { Target } from '../events/target.js';
import type { AuditLog } from '../registry/audit-log.js';
import type { KeyValueNamespace } from '../store/key-value-namespace.js';
import type { CallerIdentity, CallerQuestion } from './caller-question.js';

/** Why an answer was not taken, as a value the chat is told. */
export type CallerAnswerRefusal = { readonly ok: false; readonly code: 'not-found' | 'other-chat' | 'already-answered' | 'expired' };

/** The outcome of an answer: taken exactly once (a compare-and-set on the record), or refused. */
export type CallerAnswerResult = { readonly ok: true; readonly question: CallerQuestion } | CallerAnswerRefusal;

/** Questions MCP callers ask people in chats (ask_person): durable records, answered exactly once, found by chat. */
export interface CallerQuestions {
  /** Records a question under the id given (the caller's request maps to it) and marks it open in its chat. */
  open(input: { readonly id: string; readonly question: string; readonly options: readonly string[]; readonly target: Target; readonly askedBy: CallerIdentity }): Promise<CallerQuestion>;
  /** The record, with `expired` status once past its deadline unanswered. */
  get(id: string): Promise<CallerQuestion | undefined>;
  /** Takes the answer once; only from the chat the question was shown in, before it expires. */
  answer(input: { readonly id: string; readonly chat: Target; readonly answer: string; readonly answeredById: string; readonly answeredByName: string }): Promise<CallerAnswerResult>;
  /** Removes a question whose card could not be shown, so it captures no reply in its chat. */
  withdraw(id: string): Promise<void>;
  /** The newest unanswered, unexpired question shown in this chat (typed and numbered answers). */
  newestOpenIn(chat: Target): Promise<CallerQuestion | undefined>;
}

/** What the caller questions are built from. */
export type CallerQuestionsOptions = {
  readonly questions: KeyValueNamespace<CallerQuestion>;
  /** `<channel>:<chatId>` → ids of questions open there, oldest first. */
  readonly openByChat: KeyValueNamespace<string[]>;
  readonly audit: AuditLog;
  /** How long a question waits for its answer (the approval window). */
  readonly timeoutMs: number;
  readonly now?: () => Date;
};

const keepAnsweredMs = 7 * 24 * 60 * 60 * 1000;
const chatKey = (chat: Target) => `${chat.channel}:${chat.chatId}`;

/** Creates the caller questions over the store. */
export function createCallerQuestions(options: CallerQuestionsOptions): CallerQuestions {
  const now = options.now ?? (() => new Date());
  const withExpiry = (question: CallerQuestion | undefined): CallerQuestion | undefined =>
    question?.status === 'pending' && new Date(question.expiresAt) <= now() ? { ...question, status: 'expired' } : question;
  const closeIn = (chat: Target, id: string) => options.openByChat.update(chatKey(chat), (ids = []) => {
    const left = ids.filter((item) => item !== id);
    return left.length === 0 ? undefined : left;
  });

  return {
    async open(input) {
      const created = now();
      const question: CallerQuestion = {
        ...input,
        createdAt: created.toISOString(),
        expiresAt: new Date(created.getTime() + options.timeoutMs).toISOString(),
        status: 'pending',
      };
      await options.questions.set(question.id, question, options.timeoutMs + keepAnsweredMs);
      await options.openByChat.update(chatKey(input.target), (ids = []) => [...ids.filter((item) => item !== input.id), input.id], options.timeoutMs + keepAnsweredMs);
      options.audit.record({ kind: 'question-asked', userId: input.askedBy.userId, channel: input.target.channel, tool: 'ask_person', arguments: { question: input.question, options: input.options }, outcome: 'pending', approvalId: input.id, reason: `MCP key ${input.askedBy.keyName} (${input.askedBy.client})` });
      return question;
    },
    get: async (id) => withExpiry(await options.questions.get(id)),
    async answer(input) {
      let refusal: CallerAnswerRefusal | undefined;
      const updated = await options.questions.update(input.id, (current) => {
        const seen = withExpiry(current);
        if (!current || !seen) refusal = { ok: false, code: 'not-found' };
        else if (current.target.channel !== input.chat.channel || current.target.chatId !== input.chat.chatId) refusal = { ok: false, code: 'other-chat' };
        else if (seen.status === 'expired') refusal = { ok: false, code: 'expired' };
        else if (seen.status === 'answered') refusal = { ok: false, code: 'already-answered' };
        if (refusal || !current) return current;
        return { ...current, status: 'answered', answer: input.answer, answeredBy: input.answeredByName, answeredAt: now().toISOString() };
      });
      if (refusal) return refusal;
      if (!updated) return { ok: false, code: 'not-found' };
      await closeIn(updated.target, updated.id);
      options.audit.record({ kind: 'question-answered', userId: input.answeredById, channel: input.chat.channel, tool: 'ask_person', outcome: 'answered', approvalId: updated.id, decidedBy: input.answeredByName });
      return { ok: true, question: updated };
    },
    async withdraw(id) {
      const question = await options.questions.get(id);
      if (!question) return;
      await closeIn(question.target, id);
      await options.questions.delete(id);
    },
    async newestOpenIn(chat) {
      const ids = (await options.openByChat.get(chatKey(chat))) ?? [];
      for (const id of [...ids].reverse()) {
        const question = withExpiry(await options.questions.get(id));
        if (question?.status === 'pending') return question;
      }
      return undefined;
    },
  };
}
