import { type HookVerification, refused, type SignedRequest } from './hook-verification.js';
import { isConstantTimeEqual } from './is-constant-time-equal.js';

/** `Authorization: Bearer <secret>`, compared in constant time. It proves the caller knows the token, not what it sent. */
export function verifyBearer(secret: string, request: Pick<SignedRequest, 'headers'>): HookVerification {
  const header = request.headers.authorization ?? '';
  const match = /^Bearer[ \t]+(.+)$/i.exec(header);
  if (!match?.[1]) return refused('missing Authorization: Bearer');
  return isConstantTimeEqual(match[1].trim(), secret) ? { ok: true } : refused('the bearer token is not the hook secret');
}
