/**
 * The value at a dot path in a JSON body (`pull_request.user.login`, `commits.0.id`): own properties only, so
 * `__proto__` or `constructor` never reach anything but the payload's own keys. Undefined when a step is missing. Pure.
 */
export function readPath(body: unknown, path: string): unknown {
  let current: unknown = body;
  for (const step of path.split('.')) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, step)) return undefined;
    current = (current as Record<string, unknown>)[step];
  }
  return current;
}

/** A body value as the text a template inserts or `when` compares: scalars as text, objects as JSON, null as empty. Pure. */
export function valueText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}
