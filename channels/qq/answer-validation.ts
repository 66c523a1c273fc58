import { z } from 'zod';
import type { QqSigningKey } from './derive-signing-key.js';
import { signCallback } from './sign-callback.js';

/** The bot's answer to an op-13 address validation. */
export type ValidationAnswer = { readonly plain_token: string; readonly signature: string };

/**
 * The documented shape of `d` in an op-13 request, and nothing wider. The answer signs `event_ts + plain_token`
 * with the key that signs events, so an unchecked `plain_token` like `{"op":0,...}` would have the bot sign a
 * forged event (the attacker sends it with `X-Signature-Timestamp: <event_ts>`). Digits then short safe
 * characters can never read as a JSON event body.
 */
export const validationRequestSchema = z.object({
  plain_token: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
  // The docs show a string of unix seconds; an older page showed a number (milliseconds).
  event_ts: z.union([z.string().regex(/^\d{1,13}$/), z.number().int().nonnegative().max(9_999_999_999_999).transform(String)]),
});

/** Signs an op-13 challenge when, and only when, it has the documented shape; otherwise says why not. */
export function answerValidation(key: QqSigningKey, data: unknown): { readonly ok: true; readonly answer: ValidationAnswer } | { readonly ok: false; readonly reason: string } {
  const parsed = validationRequestSchema.safeParse(data);
  if (!parsed.success) return { ok: false, reason: 'op 13 needs d.plain_token (1-64 letters, digits, _ or -) and d.event_ts (digits)' };
  const { plain_token, event_ts } = parsed.data;
  return { ok: true, answer: { plain_token, signature: signCallback(key, { timestamp: event_ts, body: plain_token }) } };
}
