import { createHash } from 'node:crypto';

const maxLength = 64;

/**
 * The registry name of a server's tool: `<server>__<tool>`, with characters no provider accepts turned into `_`
 * (`^[A-Za-z0-9_-]{1,64}$`), cut to 64, and, when that name is already taken by another tool of the listing,
 * cut further and ended with a short hash of the server's own name so both stay callable. Pure.
 */
export function toMcpToolName(server: string, remoteName: string, taken: ReadonlySet<string>): string {
  const cleaned = remoteName.replace(/[^A-Za-z0-9_-]/g, '_') || 'tool';
  const name = `${server}__${cleaned}`.slice(0, maxLength);
  if (!taken.has(name)) return name;
  const suffix = createHash('sha256').update(remoteName).digest('hex').slice(0, 6);
  return `${name.slice(0, maxLength - suffix.length - 1)}-${suffix}`;
}
