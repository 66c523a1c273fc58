/**
 * The config file echo-agent runs a client scenario with: the scenario's server as `mcp.servers.conformance`
 * (Streamable HTTP, read_only so no approval card waits for a person at the terminal), its tools allowed.
 * `context` is MCP_CONFORMANCE_CONTEXT, the credentials some scenarios hand the client (unused until OAuth lands).
 */
export function conformanceServerYaml(input: { readonly url: string; readonly context?: string }): string {
  void input.context;
  return [
    'approvals:',
    '  explain: false',
    'mcp:',
    '  retryMaxSeconds: 1',
    '  servers:',
    '    conformance:',
    `      url: ${JSON.stringify(input.url)}`,
    '      risk: read_only',
    '      startupTimeoutSeconds: 20',
    'tools:',
    '  alsoAllow: ["conformance__*"]',
    '',
  ].join('\n');
}
