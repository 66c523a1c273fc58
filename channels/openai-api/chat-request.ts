import { createHash } from 'node:crypto';
import { z } from 'zod';

/** Longest text taken from the last user message, in characters. */
export const maxInputLength = 32_000;

const contentPart = z.looseObject({ type: z.string(), text: z.string().optional() });
const message = z.looseObject({
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool', 'function']),
  content: z.union([z.string(), z.array(contentPart), z.null()]).optional(),
});

/** What POST /v1/chat/completions reads; other OpenAI parameters (temperature, tools, ...) are accepted and ignored. */
const chatRequestSchema = z.looseObject({
  model: z.string().max(256).optional(),
  messages: z.array(message).min(1).max(2000),
  stream: z.boolean().nullish(),
  user: z.string().max(256).nullish(),
});

/** A validated request: the new input (the last user message), whether to stream, and what names the conversation. */
export type ChatRequest = {
  readonly input: string;
  readonly stream: boolean;
  /** The request's `user` field, when it sent one. */
  readonly user?: string;
  /** A digest of the first user message: the conversation of a client that names none (each new chat starts anew). */
  readonly firstMessageDigest: string;
};

/** Validates a parsed body; on failure, the first problem in words. Pure. */
export function parseChatRequest(body: unknown): { readonly ok: true; readonly request: ChatRequest } | { readonly ok: false; readonly message: string; readonly param?: string } {
  const parsed = chatRequestSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const param = issue?.path.map(String).join('.') ?? '';
    return { ok: false, message: `${param === '' ? 'body' : param}: ${issue?.message ?? 'invalid'}`, ...(param === '' ? {} : { param }) };
  }
  const users = parsed.data.messages.filter((entry) => entry.role === 'user');
  const last = parsed.data.messages.at(-1);
  if (last?.role !== 'user') return { ok: false, message: 'messages: the last message must be the user\'s (tool results are run by the agent, not sent by the client)', param: 'messages' };
  const input = textOf(last.content).trim();
  if (input === '') return { ok: false, message: 'messages: the last user message has no text', param: 'messages' };
  if (input.length > maxInputLength) return { ok: false, message: `messages: the last user message is longer than ${maxInputLength} characters`, param: 'messages' };
  const first = textOf(users[0]?.content);
  return {
    ok: true,
    request: {
      input,
      stream: parsed.data.stream === true,
      ...(typeof parsed.data.user === 'string' && parsed.data.user !== '' ? { user: parsed.data.user } : {}),
      firstMessageDigest: createHash('sha256').update(first, 'utf8').digest('hex').slice(0, 16),
    },
  };
}

/** A message's text: the string, or its text parts joined (images and other parts are not read). */
function textOf(content: z.output<typeof message>['content']): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((part) => part.type === 'text' && typeof part.text === 'string')
    .map((part) => part.text)
    .join('\n');
}
