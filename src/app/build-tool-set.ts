import type { McpToolSource } from '../../tools/mcp/index.js';
import type { ModelPort } from '../model/model-port.js';
import { createMcpSampler } from './create-mcp-sampler.js';
import { builtinTools, createExecTool, createProcessGroupTracker, type ExecSandbox, isCatastrophicCommand, type ProcessGroupTracker, sweepOrphanedCallCgroups } from '../../tools/index.js';
import { createApprovalGate, type HardBlock } from '../approvals/create-approval-gate.js';
import { createGrantStore, type Grant, type GrantStore } from '../approvals/grants.js';
import type { ChannelTraits } from '../channel/channel-adapter.js';
import type { Config, ToolSelection } from '../config/config-schema.js';
import { hookSubject } from '../events/hook-subject.js';
import type { Logger } from '../logging/create-logger.js';
import { resolveToolSet } from '../policy/resolve-tool-set.js';
import type { AuditLog } from '../registry/audit-log.js';
import type { ToolDefinition } from '../registry/define-tool.js';
import { createReplayGuard } from '../registry/replay-guard.js';
import { openStartedMarkLog } from '../registry/started-mark-log.js';
import type { ToolResult } from '../registry/tool-outcome.js';
import { createToolRegistry, type ToolRegistry } from '../registry/tool-registry.js';
import type { Store } from '../store/key-value-namespace.js';
import { canAskWhenUnattended, type ActiveSurfaces } from './approval-routing.js';
import type { Lifecycle } from './create-lifecycle.js';
import { execSandboxFor, type SandboxSources } from './exec-sandbox-for.js';

/** The tools as wired: the registry, the sandbox exec runs in, the MCP servers, and each channel's visible set. */
export type ToolSet = {
  readonly registry: ToolRegistry;
  readonly grants: GrantStore;
  readonly sandbox: ExecSandbox;
  /** Every process a tool starts, so stop() can kill what still runs. */
  readonly processGroups: ProcessGroupTracker;
  /** The MCP servers, when any is configured. */
  readonly mcp?: McpToolSource;
  readonly mcpServerNames: readonly string[];
  /** The tool names a channel's (or a hook's, `hook:<name>`) turns may use (policy resolved again whenever a dynamic source changes the set). */
  visibleToolsFor(channel: string): ReadonlySet<string>;
};

/** Builds the registry (built-ins, exec in its sandbox, MCP, the replay guard, the approval gate); closers go on the lifecycle. */
export async function buildToolSet(input: {
  readonly config: Config;
  readonly logger: Logger;
  readonly store: Store;
  readonly audit: AuditLog;
  readonly workspaceDir: string;
  readonly traits: ReadonlyMap<string, ChannelTraits>;
  readonly activeSurfaces: ActiveSurfaces;
  readonly lifecycle: Lifecycle;
  readonly sandboxSources?: SandboxSources;
  readonly extraTools?: readonly ToolDefinition[];
  /** The metered model MCP servers with `sampling: true` sample through. */
  readonly samplingModel?: ModelPort;
}): Promise<{ readonly ok: true; readonly tools: ToolSet } | { readonly ok: false; readonly error: string }> {
  const { config, logger, store, lifecycle } = input;
  const grants = createGrantStore(store.namespace<Grant[]>('grants-session'), store.namespace<Grant[]>('grants-always'), { sessionTtlMs: config.storage.sessionIdleDays * 24 * 60 * 60_000 });
  const hardBlocks: HardBlock[] = [(toolName, toolInput) => (toolName === 'exec' ? isCatastrophicCommand((toolInput as { command: string }).command, { workingDirectory: input.workspaceDir }) : undefined)];
  const processGroups = createProcessGroupTracker();
  const sandbox = execSandboxFor(config, input.sandboxSources);
  // Commands a SIGKILLed agent left running (killed before bwrap set its parent-death signal) end here, when an agent
  // starts; the doctor and `npm run tools` describe the sandbox without touching them.
  sweepOrphanedCallCgroups(sandbox.enforcement?.pidsCgroupDir);
  const execTool = createExecTool({ environment: { PATH: config.tools.execPath }, sandbox, tracker: processGroups, limits: config.tools.limits });
  // MCP servers join as a dynamic tool source; the client is loaded only when one is configured.
  const mcpServerNames = Object.keys(config.mcp.servers);
  const mcp = mcpServerNames.length > 0 ? (await import('../../tools/mcp/index.js')).createMcpToolSource({ config, logger, sandbox, audit: (entry) => input.audit.record(entry), ...(input.samplingModel ? { sample: createMcpSampler(input.samplingModel) } : {}) }) : undefined;
  if (mcp) lifecycle.defer('the MCP servers', () => mcp.stop());
  // A2A peers are tools a2a__<name>; the SDK is loaded only when a peer is configured.
  const a2aPeerTools = Object.keys(config.a2a.peers).length > 0 ? (await import('../../tools/a2a/index.js')).createA2aPeerTools(config.a2a.peers) : [];
  // A SQLite store's started marks go to a file beside it, one synchronous write each; what an earlier process left
  // there moves into the store before any turn runs.
  const replayGuard = createReplayGuard({
    store: store.namespace<ToolResult>('idempotency'),
    ...(store.localFile === undefined ? {} : { markLog: openStartedMarkLog({ file: `${store.localFile}-started` }) }),
  });
  lifecycle.defer('the replay guard', () => replayGuard.close());
  await replayGuard.recover().catch((error: unknown) => logger.warn({ err: error }, 'started marks of the last run not moved to the store yet; the mark file still answers'));
  const built = createToolRegistry({
    tools: [...builtinTools.filter((tool) => tool.name !== 'exec'), execTool, ...a2aPeerTools, ...(input.extraTools ?? [])],
    toolSource: mcp,
    onToolRejected: (name, reason) => logger.warn({ tool: name }, `tool not offered: ${reason}`),
    audit: input.audit,
    replayGuard,
    approvalHook: createApprovalGate({
      hardBlocks,
      require: config.approvals.require,
      autoApprove: config.approvals.autoApprove,
      grants,
      canAskWhenUnattended: canAskWhenUnattended(config, input.activeSurfaces),
      mode: config.approvals.mode,
    }),
    network: config.tools.network,
    capabilityRules: config.tools.capabilityRules,
    credentials: config.tools.credentials,
    onBackgroundError: (error, what) => logger.warn({ err: error }, `failed ${what}`),
  });
  if (!built.ok) return { ok: false, error: built.error };
  const registry = built.registry;
  lifecycle.defer('the tool registry', () => registry.flush());
  const visibleToolsFor = createVisibleTools({ config, logger, registry, traits: input.traits, externalPrefixes: [...mcpServerNames.map((name) => `${name}__`), 'a2a__'] });
  return { ok: true, tools: { registry, grants, sandbox, processGroups, mcp, mcpServerNames, visibleToolsFor } };
}

/** Each channel's tool set, resolved once and again after the registry changes; each policy warning logged once. */
function createVisibleTools(input: { readonly config: Config; readonly logger: Logger; readonly registry: ToolRegistry; readonly traits: ReadonlyMap<string, ChannelTraits>; readonly externalPrefixes: readonly string[] }): (channel: string) => ReadonlySet<string> {
  const toolSets = new Map<string, ReadonlySet<string>>();
  // A hook's turns have a selection of their own, the minimal profile unless it names another.
  const scopeTools = new Map<string, Partial<ToolSelection>>(Object.entries(input.config.hooks).map(([name, hook]) => [hookSubject(name), { ...hook.tools, profile: hook.tools.profile ?? 'minimal' }]));
  // A channel's callers may have selections of their own (an A2A key's), named by the scope their events carry.
  for (const traits of input.traits.values()) for (const [scope, caller] of Object.entries(traits.callerScopes ?? {})) scopeTools.set(scope, caller.tools);
  input.registry.onChange(() => toolSets.clear());
  const warned = new Set<string>();
  return (channel) => {
    const cached = toolSets.get(channel);
    if (cached) return cached;
    const resolved = resolveToolSet({ global: input.config.tools, channel: input.traits.get(channel)?.tools ?? scopeTools.get(channel), externalPrefixes: input.externalPrefixes }, input.registry.names());
    for (const warning of resolved.warnings.filter((line) => !warned.has(line))) {
      warned.add(warning);
      input.logger.warn(warning);
    }
    toolSets.set(channel, resolved.names);
    return resolved.names;
  };
}

/** The budgets channels declare for their callers (callerScopes), by scope name. Pure. */
export function callerBudgetsOf(traits: ReadonlyMap<string, ChannelTraits>): Record<string, NonNullable<Config['budgets']['job']>> {
  return Object.fromEntries([...traits.values()].flatMap((channel) => Object.entries(channel.callerScopes ?? {}).flatMap(([scope, caller]) => (caller.budget === undefined ? [] : [[scope, caller.budget] as const]))));
}
