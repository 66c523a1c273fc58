import type { McpServeKey } from '../config/mcp-serve-schema.js';
import { findBearerKey } from '../gateway/find-bearer-key.js';

/** The key an `Authorization: Bearer <key>` header names, or undefined (constant time, every key compared). */
export function findServeKey(authorization: string | undefined, keys: readonly McpServeKey[]): McpServeKey | undefined {
  const match = findBearerKey(authorization, keys, (key) => key.key);
  return match.ok ? match.key : undefined;
}
