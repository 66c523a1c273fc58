/** A readable line from a connection error and its causes, e.g. `Connection error. — fetch failed — connect ECONNREFUSED 127.0.0.1:4000`. */
export function describeConnectionError(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  // Bounded: cause chains can be long or, in odd cases, circular.
  for (let depth = 0; depth < 4 && current instanceof Error; depth += 1) {
    if (current.message !== '' && !parts.includes(current.message)) parts.push(current.message);
    current = current.cause;
  }
  return parts.length > 0 ? parts.join(' — ') : String(error);
}
