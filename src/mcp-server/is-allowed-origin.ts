/** Host names of the person's own machine: a page served there is not a DNS-rebinding page. */
const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Whether a request with this `Origin` header may reach echo-agent's MCP endpoint. The Streamable HTTP transport
 * says a server MUST refuse (403) a present, invalid Origin, against DNS rebinding: a page on evil.example.com whose
 * name resolves to this machine. No Origin at all (MCP hosts such as Claude Code, Codex or Cursor send none) is
 * allowed; a browser's must be a loopback origin or one of `allowedOrigins`. Pure.
 */
export function isAllowedOrigin(origin: string | undefined, allowedOrigins: readonly string[]): boolean {
  if (origin === undefined) return true;
  if (!URL.canParse(origin)) return false;
  const parsed = new URL(origin);
  if (parsed.origin === 'null') return false;
  if (loopbackHosts.has(parsed.hostname)) return true;
  return allowedOrigins.some((allowed) => URL.canParse(allowed) && new URL(allowed).origin === parsed.origin);
}
