import type { ExecSandbox } from '../../tools/index.js';
import type { Config } from '../config/config-schema.js';
import { createLogger } from '../logging/create-logger.js';
import type { ToolServerStatus } from '../registry/dynamic-tool-source.js';

/** What connecting to every configured MCP server once found: each server's state and the tools it offered. */
export type McpProbe = {
  readonly servers: Readonly<Record<string, ToolServerStatus>>;
  readonly tools: readonly { readonly name: string; readonly server: string; readonly remoteName: string; readonly risk: string; readonly description: string }[];
};

/**
 * Starts every configured MCP server the way the app does (in parallel, each bounded by its start-up timeout),
 * reads their states and tools, and stops them: for `npm run tools` and the doctor. Nothing is loaded without servers.
 */
export async function probeMcpServers(config: Config, sandbox: ExecSandbox): Promise<McpProbe> {
  if (Object.keys(config.mcp.servers).length === 0) return { servers: {}, tools: [] };
  const { createMcpToolSource } = await import('../../tools/mcp/index.js');
  const source = createMcpToolSource({ config, sandbox, probeOnly: true, logger: await createLogger({ level: 'silent', pretty: false }) });
  try {
    await source.start();
    const descriptions = new Map(source.tools().map((tool) => [tool.name, tool.description]));
    return { servers: source.servers(), tools: source.describe().map((tool) => ({ ...tool, description: descriptions.get(tool.name) ?? '' })) };
  } finally {
    await source.stop();
  }
}
