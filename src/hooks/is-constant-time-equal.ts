import { createHash, timingSafeEqual } from 'node:crypto';

/** Compares two secrets or signatures in constant time: both are hashed first, so neither length nor content leaks. */
export function isConstantTimeEqual(left: string, right: string): boolean {
  return timingSafeEqual(createHash('sha256').update(left).digest(), createHash('sha256').update(right).digest());
}
