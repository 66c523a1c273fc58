import { createHash, timingSafeEqual } from 'node:crypto';
import type { A2aKey } from './a2a-config.js';

/** Who a request is, by its bearer key: the key, or why not. */
export type A2aKeyCheck = { readonly ok: true; readonly key: A2aKey } | { readonly ok: false; readonly reason: 'missing' | 'invalid' };

const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/** Checks an `Authorization` header against the keys: constant time over hashes, every key every time. Pure. */
export function checkA2aKey(authorization: string | undefined, keys: readonly A2aKey[]): A2aKeyCheck {
  const given = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
  if (given === undefined) return { ok: false, reason: 'missing' };
  const givenDigest = digest(given);
  let found: A2aKey | undefined;
  for (const key of keys) if (timingSafeEqual(digest(key.secret), givenDigest) && found === undefined) found = key;
  return found === undefined ? { ok: false, reason: 'invalid' } : { ok: true, key: found };
}
