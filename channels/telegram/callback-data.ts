import { z } from 'zod';
import type { ApprovalChoice } from '../../src/events/approval-card.js';
import { EchoError } from '../../src/errors/echo-error.js';

/** What a button press means, once its callback data is parsed. */
export type CallbackAction =
  | { readonly kind: 'approval'; readonly approvalId: string; readonly choice: ApprovalChoice }
  | { readonly kind: 'question'; readonly questionId: string; readonly optionIndex: number }
  | { readonly kind: 'memory-forget'; readonly factId: string };

/** Telegram refuses callback data longer than this many bytes. */
export const callbackDataLimitBytes = 64;

const choiceCodes: Readonly<Record<ApprovalChoice, string>> = { once: 'o', session: 's', always: 'a', deny: 'd' };
const choicesByCode: Readonly<Record<string, ApprovalChoice>> = { o: 'once', s: 'session', a: 'always', d: 'deny' };
const idPattern = /^[A-Za-z0-9_-]{1,48}$/;

// Versioned (`e1`), so a future layout can be told apart from buttons already sitting in chats.
const approvalData = z
  .string()
  .regex(/^e1:a:[A-Za-z0-9_-]{1,48}:[osad]$/)
  .transform((data): CallbackAction => {
    const [, , approvalId = '', code = ''] = data.split(':');
    return { kind: 'approval', approvalId, choice: choicesByCode[code] ?? 'deny' };
  });

const questionData = z
  .string()
  .regex(/^e1:q:[A-Za-z0-9_-]{1,48}:(?:0|[1-9]\d?)$/)
  .transform((data): CallbackAction => {
    const [, , questionId = '', index = '0'] = data.split(':');
    return { kind: 'question', questionId, optionIndex: Number(index) };
  });

const forgetData = z
  .string()
  .regex(/^e1:m:[A-Za-z0-9_-]{1,48}$/)
  .transform((data): CallbackAction => ({ kind: 'memory-forget', factId: data.slice('e1:m:'.length) }));

const callbackDataSchema = z
  .string()
  .refine((data) => Buffer.byteLength(data, 'utf8') <= callbackDataLimitBytes)
  .pipe(z.union([approvalData, questionData, forgetData]));

/** The callback data of a button: `e1:a:<approvalId>:<o|s|a|d>`, `e1:q:<questionId>:<index>` or `e1:m:<factId>`, at most 64 bytes. */
export function encodeCallbackData(action: CallbackAction): string {
  const id = action.kind === 'approval' ? action.approvalId : action.kind === 'question' ? action.questionId : action.factId;
  if (!idPattern.test(id)) throw new EchoError('telegram-callback-id', `An id of ${id.length} characters cannot go into Telegram callback data.`);
  const data = action.kind === 'approval' ? `e1:a:${id}:${choiceCodes[action.choice]}` : action.kind === 'question' ? `e1:q:${id}:${action.optionIndex}` : `e1:m:${id}`;
  if (action.kind === 'question' && (!Number.isInteger(action.optionIndex) || action.optionIndex < 0 || action.optionIndex > 99)) {
    throw new EchoError('telegram-callback-option', `Option index ${action.optionIndex} cannot go into Telegram callback data.`);
  }
  return data;
}

/** Parses callback data strictly; anything else (old layouts, forged data) is undefined: an unknown button. */
export function parseCallbackData(data: string | undefined): CallbackAction | undefined {
  const parsed = callbackDataSchema.safeParse(data);
  return parsed.success ? parsed.data : undefined;
}
