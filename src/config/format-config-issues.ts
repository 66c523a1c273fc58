import type { z } from 'zod';
import { isSecretName } from './is-secret-name.js';

/** Turns zod issues into one readable line each: the key's path, what was expected, and a hint. */
export function formatConfigIssues(issues: readonly z.core.$ZodIssue[], parsed: unknown): string[] {
  return issues.map((issue) => {
    const path = issue.path.map(String).join('.') || '(root)';
    const received = readPath(parsed, issue.path);
    const isSecret = issue.path.some((part) => typeof part === 'string' && isSecretName(part));
    // A record's bad key (an MCP server's name) carries its reason one level down.
    const message = issue.code === 'invalid_key' ? issue.issues.map((inner) => inner.message).join('; ') : issue.message;
    return `${path}: ${message} (got ${describeReceived(received, isSecret)})${hintFor(issue)}`;
  });
}

/**
 * What the file held at that path, safe to print. Only a scalar is quoted: a section or list may
 * hold secrets under other keys (an unknown key is reported on its section), so it is only named.
 */
function describeReceived(received: unknown, isSecret: boolean): string {
  if (received === undefined) return 'nothing';
  if (isSecret) return received === '' || received === null ? 'an empty value' : 'a value (hidden: it is a secret)';
  if (Array.isArray(received)) return 'a list';
  if (received !== null && typeof received === 'object') return 'a section';
  return JSON.stringify(received);
}

function hintFor(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_value' && 'values' in issue) return `. Use one of: ${issue.values.map(String).join(', ')}`;
  if (issue.code === 'unrecognized_keys') return '. Check the spelling against docs/configuration.md';
  if (issue.code === 'invalid_type' && issue.expected === 'number') return '. Write a plain number, e.g. 8787';
  return '';
}

function readPath(value: unknown, path: readonly PropertyKey[]): unknown {
  let current = value;
  for (const part of path) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, part)) return undefined;
    current = (current as Record<PropertyKey, unknown>)[part];
  }
  return current;
}
