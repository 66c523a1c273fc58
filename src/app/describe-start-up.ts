import { describeExecSandbox } from '../../tools/index.js';
import type { WiredChannel } from '../channel/channel-context.js';
import type { Config } from '../config/config-schema.js';
import type { Gateway } from '../gateway/create-gateway.js';
import type { Store } from '../store/key-value-namespace.js';
import type { ToolSet } from './build-tool-set.js';

/** The start-up lines: model, store, tools, approvals, MCP servers, one line per channel, and the gateway. */
export function describeStartUp(input: {
  readonly config: Config;
  readonly modelNames: readonly string[];
  readonly store: Store;
  readonly tools: ToolSet;
  /** The channel whose tool set the tools line shows (the first offered). */
  readonly firstChannel: string;
  readonly wired: readonly WiredChannel[];
  readonly gateway?: Gateway;
}): string[] {
  const { config, tools } = input;
  const reviewer = config.approvals.reviewerModel ? `${config.approvals.reviewerModel.provider}:${config.approvals.reviewerModel.name}` : 'the primary model';
  return [
    `model: ${input.modelNames.join(' → ')}`,
    `store: ${input.store.description}`,
    `tools (${config.tools.profile ?? 'messaging'}): ${[...tools.visibleToolsFor(input.firstChannel)].sort().join(', ')}`,
    ...(config.approvals.mode === 'manual' ? [] : [`approvals: ${config.approvals.mode}${config.approvals.mode === 'smart' ? ` (reviewer: ${reviewer})` : ''}`]),
    ...(tools.mcp ? [`mcp: ${tools.mcpServerNames.map((name) => `${name} (${config.mcp.servers[name]?.url ? 'http' : 'stdio'})`).join(', ')}; their tools join when each is up`] : []),
    ...input.wired.map((item) => (item.on ? `${item.channel.name}: on (${item.detail})` : `${item.name}: off (${item.reason})`)),
    ...(input.gateway ? [`gateway: ${config.gateway.host}:${config.gateway.port} (/healthz, /metrics${input.gateway.routes().map((route) => `, ${route.method} ${route.path}`).join('')})`] : []),
  ];
}

/** The sandbox line for the log, when some channel's turns may run exec. */
export function describeSandboxUse(tools: ToolSet, channels: readonly string[]): string | undefined {
  return channels.some((channel) => tools.visibleToolsFor(channel).has('exec')) ? `exec sandbox: ${describeExecSandbox(tools.sandbox)}` : undefined;
}
