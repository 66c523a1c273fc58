import { z } from 'zod';
import type { FieldIssue } from '../../src/gateway/error-response.js';

/** Longest message text, in characters. */
export const maxTextLength = 32_000;

/** What POST /v1/messages accepts. Unknown keys are dropped, so trust flags can never come from here. */
export type MessageRequest = {
  readonly chatId: string;
  readonly senderId?: string;
  readonly text: string;
  readonly callbackUrl?: string;
};

/** Builds the body schema; plain-http callbacks are allowed only when tests ask for it. */
export function createMessageRequestSchema(options: { readonly allowHttpCallbacks: boolean }) {
  return z.object({
    chatId: z.string().min(1).max(128),
    senderId: z.string().min(1).max(128).optional(),
    text: z.string().min(1).max(maxTextLength),
    callbackUrl: z
      .url({ protocol: options.allowHttpCallbacks ? /^https?$/ : /^https$/, error: options.allowHttpCallbacks ? 'must be an http(s) URL' : 'must be an https URL' })
      .max(2048)
      .optional(),
  });
}

/** Validates a parsed JSON body; on failure, every failing field by its path. */
export function parseMessageRequest(body: unknown, options: { readonly allowHttpCallbacks: boolean }): { readonly ok: true; readonly request: MessageRequest } | { readonly ok: false; readonly fields: readonly FieldIssue[] } {
  const parsed = createMessageRequestSchema(options).safeParse(body);
  if (parsed.success) return { ok: true, request: parsed.data };
  return {
    ok: false,
    fields: parsed.error.issues.map((issue) => ({ path: issue.path.length === 0 ? '(body)' : issue.path.map(String).join('.'), message: issue.message })),
  };
}
