import { createHash, timingSafeEqual } from 'node:crypto';
import type { McpServeKey } from '../config/mcp-serve-schema.js';

/**
 * The key an `Authorization: Bearer <key>` header names, or undefined. Every key is compared in constant time over
 * hashes (lengths leak nothing), and all of them are compared, so the time says nothing about which one matched.
 */
export function findServeKey(authorization: string | undefined, keys: readonly McpServeKey[]): McpServeKey | undefined {
  const given = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
  if (given === undefined) return undefined;
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  const givenDigest = digest(given);
  let found: McpServeKey | undefined;
  for (const key of keys) if (timingSafeEqual(givenDigest, digest(key.key)) && found === undefined) found = key;
  return found;
}
