import { isSecretName } from '../config/is-secret-name.js';

const masked = '***';
/**
 * `--token=abc`, `--api-key abc`, `-auth abc` style flags inside command lines. A flag starts a word:
 * the dashes inside `sk-live-key` or `well-known-token` do not, and must not mask the word after them.
 */
const secretFlag = /(?<![A-Za-z0-9_-])(--?[A-Za-z0-9_-]*(?:key|token|secret|password|passwd|credential|auth)[A-Za-z0-9_-]*)(=|\s+)("[^"]*"|'[^']*'|\S+)/gi;

/** Masks secret-looking flags and known secret values inside a text. */
export function maskSecretText(text: string, knownSecrets: readonly string[] = []): string {
  let result = text.replace(secretFlag, (_match, flag: string, separator: string) => `${flag}${separator}${masked}`);
  for (const secret of knownSecrets) {
    if (secret.length > 0 && result.includes(secret)) result = result.split(secret).join(masked);
  }
  return result;
}

/** Returns a copy with values under secret-named keys masked, and secret flags and known values masked in strings. */
export function maskSecrets(value: unknown, knownSecrets: readonly string[] = [], depth = 0): unknown {
  if (depth > 8) return '[too deep]';
  if (typeof value === 'string') return maskSecretText(value, knownSecrets);
  if (Array.isArray(value)) return value.map((item) => maskSecrets(item, knownSecrets, depth + 1));
  if (value !== null && typeof value === 'object') {
    const result: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      result[key] = isSecretName(key) && item !== undefined && item !== null && item !== '' ? masked : maskSecrets(item, knownSecrets, depth + 1);
    }
    return result;
  }
  return value;
}
