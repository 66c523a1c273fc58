import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * A new random secret for a link, a session cookie or a CSRF token: 32 bytes as 64 hex digits (no `_` or `*` a chat's
 * Markdown would eat from a link).
 */
export function createSecretToken(): string {
  return randomBytes(32).toString('hex');
}

/** The SHA-256 of a secret, hex: what the store keeps of links and sessions, so a copy of the store opens nothing. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Compares two secrets in constant time (over their hashes, so lengths leak nothing either). */
export function tokensMatch(given: string, expected: string): boolean {
  if (given === '' || expected === '') return false;
  return timingSafeEqual(createHash('sha256').update(given).digest(), createHash('sha256').update(expected).digest());
}
