import { maskSecrets } from '../logging/mask-secrets.js';

const maxValueChars = 300;
const maxTotalChars = 1500;

/** The exact arguments for an approval card: secrets masked, long values cut with a visible note. */
export function formatArguments(input: unknown, secrets: readonly string[] = []): string {
  const masked = maskSecrets(input, secrets);
  const text = JSON.stringify(cutLongValues(masked), null, 2) ?? 'null';
  return text.length <= maxTotalChars ? text : `${text.slice(0, maxTotalChars)}\n… (${text.length - maxTotalChars} more characters)`;
}

function cutLongValues(value: unknown): unknown {
  if (typeof value === 'string') return value.length <= maxValueChars ? value : `${value.slice(0, maxValueChars)}… (${value.length - maxValueChars} more characters)`;
  if (Array.isArray(value)) return value.map(cutLongValues);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, cutLongValues(item)]));
  return value;
}
