import type { Config } from '../../config/config-schema.js';
import type { McpProbe } from '../probe-mcp-servers.js';
import { type DoctorLine, doctorLine } from '../../doctor/doctor-line.js';

/**
 * One line per configured MCP server: up with how many tools, or why it is not (it will be retried while the agent runs);
 * a server behind OAuth also says its auth state (authorized until when, waiting for a person, refused and why). Pure.
 */
export function describeMcpServers(config: Config, probe: McpProbe): DoctorLine[] {
  return Object.entries(config.mcp.servers).map(([name, server]) => {
    const how = server.url === undefined ? `stdio: ${server.command ?? ''}` : `Streamable HTTP: ${server.url}`;
    const status = probe.servers[name];
    const auth = status?.auth === undefined ? '' : `; OAuth: ${status.auth}`;
    if (status?.state === 'up') return doctorLine('ok', 'mcp', `${name} (${how}) is up with ${status.tools} tools, default risk ${server.risk}${auth}`);
    return doctorLine('fail', 'mcp', `${name} (${how}) is ${status?.state ?? 'down'}${status?.error ? `: ${status.error}` : ''}${auth}; the agent keeps retrying it, with its tools withdrawn meanwhile`);
  });
}
