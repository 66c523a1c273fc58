import type { z } from 'zod';
import { isSecretName } from './is-secret-name.js';

/** Turns zod issues into one readable line each: the key's path, what was expected, and a hint. */
export function formatConfigIssues(issues: readonly z.core.$ZodIssue[], parsed: unknown): string[] {
  return issues.map((issue) => {
    const path = issue.path.map(String).join('.') || '(root)';
    const received = readPath(parsed, issue.path);
    const isSecret = issue.path.some((part) => typeof part === 'string' && isSecretName(part));
    const shown = received === undefined ? 'nothing' : isSecret ? 'a value (hidden: it is a secret)' : JSON.stringify(received);
    return `${path}: ${issue.message} (got ${shown})${hintFor(issue)}`;
  });
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
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[part];
  }
  return current;
}
