import type { HookConfig } from '../config/config-schema.js';
import { readPath, valueText } from './read-path.js';

/** Whether a request passes a hook's `when`, and the first condition it failed. */
export type WhenMatch = { readonly matched: true } | { readonly matched: false; readonly failed: string };

/**
 * Checks `when`: every listed header (name case-insensitive) and every body dot path must equal the value, or one of
 * the list, compared as text. A missing header or path does not match. No code, no patterns. Pure.
 */
export function matchesWhen(when: HookConfig['when'], request: { readonly headers: Readonly<Record<string, string | undefined>>; readonly body: unknown }): WhenMatch {
  for (const [name, expected] of Object.entries(when.header)) {
    const actual = request.headers[name.toLowerCase()];
    if (actual === undefined || !allowed(expected).includes(actual)) return { matched: false, failed: `header ${name.toLowerCase()}` };
  }
  for (const [path, expected] of Object.entries(when.body)) {
    const value = readPath(request.body, path);
    if (value === undefined || !allowed(expected).includes(valueText(value))) return { matched: false, failed: `body ${path}` };
  }
  return { matched: true };
}

function allowed(expected: string | readonly string[]): readonly string[] {
  return typeof expected === 'string' ? [expected] : expected;
}
