import { createHash } from 'node:crypto';

/** JSON with object keys sorted at every level, so equal values always give equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(input: unknown): unknown {
  // What JSON.stringify would print for it (a Date becomes its ISO text), so equal JSON gives equal text.
  const value = hasToJson(input) ? input.toJSON() : input;
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    // No prototype: a "__proto__" key from parsed JSON stays an ordinary key instead of vanishing from the text.
    const sorted: Record<string, unknown> = Object.create(null);
    for (const key of Object.keys(value).sort()) sorted[key] = sortKeys((value as Record<string, unknown>)[key]);
    return sorted;
  }
  return value;
}

function hasToJson(value: unknown): value is { toJSON(): unknown } {
  return value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function';
}

/** sha256 hex of the given parts joined unambiguously. */
export function hashParts(...parts: readonly string[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(`${part.length}:${part}`);
  return hash.digest('hex');
}

/** The hash an approval is bound to: the tool and its exact (canonical) arguments. */
export function hashToolCall(toolName: string, input: unknown): string {
  return hashParts(toolName, canonicalJson(input));
}
