import { createHash, timingSafeEqual } from 'node:crypto';

/** The key an `Authorization: Bearer <key>` header names, or why none: no bearer header, or no key matches. */
export type BearerKeyMatch<Key> = { readonly ok: true; readonly key: Key } | { readonly ok: false; readonly reason: 'missing' | 'invalid' };

const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/**
 * Finds the configured key an `Authorization` header names. Every key is compared in constant time over hashes
 * (lengths leak nothing), and all of them are compared, so the time says nothing about which one matched. Pure.
 */
export function findBearerKey<Key>(authorization: string | undefined, keys: readonly Key[], secretOf: (key: Key) => string): BearerKeyMatch<Key> {
  const given = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
  if (given === undefined) return { ok: false, reason: 'missing' };
  const givenDigest = digest(given);
  let found: Key | undefined;
  for (const key of keys) if (timingSafeEqual(digest(secretOf(key)), givenDigest) && found === undefined) found = key;
  return found === undefined ? { ok: false, reason: 'invalid' } : { ok: true, key: found };
}
