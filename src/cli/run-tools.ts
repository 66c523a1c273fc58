import { builtinTools } from '../../tools/index.js';
import { resolveToolSet } from '../policy/resolve-tool-set.js';
import { loadConfig } from '../config/load-config.js';
import { builtinChannels, channelConfigSections } from '../app/builtin-channels.js';
import { execSandboxFor } from '../app/exec-sandbox-for.js';
import type { ParsedArguments } from '../app/parse-arguments.js';
import { probeMcpServers } from '../app/probe-mcp-servers.js';

const profileNames = ['minimal', 'messaging', 'coding', 'full'] as const;
type ProfileName = (typeof profileNames)[number];

/** `npm run tools [-- --profile NAME --channel NAME]`: the resolved tool set with risk, approval and capabilities, then every MCP tool with its server, risk and whether it is offered. */
export async function runTools(parsed: ParsedArguments): Promise<number> {
  const loaded = loadConfig({ configFile: parsed.configFile, channels: channelConfigSections() });
  if (!loaded.ok) {
    process.stderr.write(`The configuration is not valid:\n${loaded.errors.map((line) => `  - ${line}`).join('\n')}\n`);
    return 2;
  }
  const profile = parsed.values.get('profile');
  if (profile !== undefined && !(profileNames as readonly string[]).includes(profile)) {
    process.stderr.write(`Unknown profile "${profile}". Use one of: ${profileNames.join(', ')}.\n`);
    return 2;
  }
  const channel = parsed.values.get('channel');
  const config = loaded.config;
  const channelSelection = channel === undefined ? undefined : builtinChannels.find((adapter) => adapter.name === channel)?.traits(config).tools;
  const global = profile ? { ...config.tools, profile: profile as ProfileName } : config.tools;
  const mcp = await probeMcpServers(config, execSandboxFor(config, { root: loaded.root, loadedFiles: loaded.loadedFiles }));
  const resolved = resolveToolSet(
    { global, channel: profile ? { ...channelSelection, profile: profile as ProfileName } : channelSelection, externalPrefixes: Object.keys(config.mcp.servers).map((name) => `${name}__`) },
    [...builtinTools.map((tool) => tool.name), ...mcp.tools.map((tool) => tool.name)],
  );
  for (const warning of resolved.warnings) process.stderr.write(`warning: ${warning}\n`);
  const rows = builtinTools
    .filter((tool) => resolved.names.has(tool.name))
    .map((tool) => [tool.name, tool.risk, tool.approval ?? 'by-risk', (tool.capabilities ?? []).join(',') || '-', tool.description.split('.')[0] ?? '']);
  process.stdout.write(`profile ${global.profile ?? 'messaging'}${channel ? `, channel ${channel}` : ''}: ${rows.length} tools\n`);
  process.stdout.write(formatTable(['tool', 'risk', 'approval', 'capabilities', 'what it does'], rows));
  if (Object.keys(config.mcp.servers).length === 0) return 0;
  // MCP tools beside the built-ins: every one a server offers, and whether this selection offers it to the model.
  const mcpRows = mcp.tools.map((tool) => [tool.name, tool.server, tool.risk, resolved.names.has(tool.name) ? 'yes' : 'no', tool.description.split('.')[0] ?? '']);
  process.stdout.write(`\nMCP tools: ${mcpRows.filter((row) => row[3] === 'yes').length} of ${mcpRows.length} offered (tools.allow / tools.alsoAllow decide)\n`);
  if (mcpRows.length > 0) process.stdout.write(formatTable(['tool', 'server', 'risk', 'offered', 'what it does'], mcpRows));
  for (const [name, status] of Object.entries(mcp.servers)) {
    if (status.state !== 'up') process.stdout.write(`server ${name}: ${status.state}${status.error ? ` (${status.error})` : ''}: its tools are not listed\n`);
  }
  return 0;
}

/** Columns padded to their widest cell, the last one free. Pure. */
function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  const format = (row: readonly string[]) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0))).join('  ');
  return `${format(header)}\n${rows.map(format).join('\n')}\n`;
}
