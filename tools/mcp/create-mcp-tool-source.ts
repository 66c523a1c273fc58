import type { Config } from '../../src/config/config-schema.js';
import type { Logger } from '../../src/logging/create-logger.js';
import type { AuditEntry } from '../../src/registry/audit-log.js';
import type { McpSampler } from './sampling-handler.js';
import type { ExecSandbox } from '../exec-sandbox.js';
import type { ToolDefinition } from '../../src/registry/define-tool.js';
import type { DynamicToolSource, ToolServerStatus } from '../../src/registry/dynamic-tool-source.js';
import { type ClientMetadataDocument, createClientMetadataDocument, resolveClientMetadataUrl } from './create-client-metadata-document.js';
import type { McpServerConnection } from './mcp-server-connection.js';
import { toMcpToolName } from './mcp-tool-name.js';
import type { toMcpTool as ToMcpTool } from './to-mcp-tool.js';

/** Every configured MCP server as one source of registry tools, with the app's start and stop. */
export type McpToolSource = DynamicToolSource & {
  /** Starts every server in parallel; resolves when each is up or failed, or its start-up timeout passed (it keeps connecting after). */
  start(): Promise<void>;
  /** Closes every connection (stdio children stop) and stops retrying. */
  stop(): Promise<void>;
  /** Each tool offered now with its server, risk and the name the server gives it. */
  describe(): readonly { readonly name: string; readonly server: string; readonly remoteName: string; readonly risk: string }[];
  /** Hears each authorization link a person must open (an OAuth server with the authorization-code grant). */
  onAuthorizationLink(listener: (server: string, link: URL) => void): () => void;
  /** Where the authorization server sends the person back, once the gateway listens (default from mcp.oauthCallbackUrl or gateway). */
  useOAuthCallbackUrl(url: string): void;
  /** The callback's answer: the server whose link carried `state` exchanges `code` for tokens and connects. */
  /** echo-agent's client ID metadata document, for the gateway to publish; undefined when no HTTPS URL is known for it. */
  clientMetadataDocument(): ClientMetadataDocument | undefined;
  completeAuthorization(input: { readonly state: string; readonly code: string }): Promise<{ readonly ok: true; readonly server: string } | { readonly ok: false; readonly error: string }>;
};

/**
 * Builds the source from `config.mcp`; nothing connects until `start()`, and the MCP client and ajv are loaded only
 * then, so creating the app costs nothing and the app's start need not wait for them.
 */
export function createMcpToolSource(options: {
  readonly config: Config;
  readonly logger: Logger;
  readonly sandbox: ExecSandbox;
  /** A one-off look (doctor, `npm run tools`): OAuth uses the stored access token only, never refreshes, links or writes. */
  readonly probeOnly?: boolean;
  /** Where elicitation requests and answers are recorded (none for a probe). */
  readonly audit?: (entry: AuditEntry) => void;
  /** The agent's model for servers with `sampling: true` (none for a probe: sampling is then not declared). */
  readonly sample?: McpSampler;
}): McpToolSource {
  const { config, logger, sandbox } = options;
  const listeners = new Set<() => void>();
  let built: { tool: ToolDefinition; remoteName: string }[] = [];
  // Every name ever offered, with its server: a call after a withdrawal is told why, not "unknown tool".
  const everOffered = new Map<string, string>();
  const reportedSkips = new Set<string>();
  const linkListeners = new Set<(server: string, link: URL) => void>();
  let callbackUrl = config.mcp.oauthCallbackUrl ?? `http://${config.gateway.host}:${config.gateway.port}/mcp/oauth/callback`;
  const clientMetadataUrlNow = () => resolveClientMetadataUrl({ configured: config.mcp.oauthClientMetadataUrl, callbackUrl });

  let connections: McpServerConnection[] = [];
  let stopped = false;
  let toMcpTool: typeof ToMcpTool | undefined;
  const rebuild = () => {
    if (!toMcpTool) return;
    const next: typeof built = [];
    const taken = new Set<string>();
    for (const connection of connections) {
      const server = config.mcp.servers[connection.name];
      if (!server) continue;
      for (const remote of connection.tools()) {
        const registryName = toMcpToolName(connection.name, remote.name, taken);
        const risk = Object.hasOwn(server.tools, remote.name) ? (server.tools[remote.name]?.risk ?? server.risk) : server.risk;
        const made = toMcpTool({
          server: connection.name,
          registryName,
          remote,
          risk,
          timeoutMs: server.timeoutSeconds * 1000,
          call: (remoteName, input, callOptions) => connection.call(remoteName, input, callOptions),
        });
        if (!made.ok) {
          const key = `${connection.name}/${remote.name}: ${made.reason}`;
          if (!reportedSkips.has(key)) logger.warn({ mcpServer: connection.name, tool: remote.name }, `MCP tool skipped: ${made.reason}`);
          reportedSkips.add(key);
          continue;
        }
        taken.add(registryName);
        everOffered.set(registryName, connection.name);
        next.push({ tool: made.tool, remoteName: remote.name });
      }
    }
    built = next;
    for (const listener of listeners) listener();
  };

  return {
    tools: () => built.map((entry) => entry.tool),
    unavailableReason(name) {
      const server = everOffered.get(name);
      if (server === undefined) return undefined;
      const status = connections.find((connection) => connection.name === server)?.status();
      if (status?.state === 'up') return `The tool "${name}" is no longer offered by the MCP server "${server}".`;
      return `The tool "${name}" is unavailable: its MCP server "${server}" is ${status?.state ?? 'down'}${status?.error ? ` (${status.error})` : ''}. Do without it or try again later.`;
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    servers: () =>
      Object.fromEntries(
        Object.keys(config.mcp.servers).map((name) => [name, connections.find((connection) => connection.name === name)?.status() ?? { state: 'starting', tools: 0 }]),
      ) as Record<string, ToolServerStatus>,
    describe: () => built.map(({ tool, remoteName }) => ({ name: tool.name, server: tool.server ?? '', remoteName, risk: tool.risk })),
    onAuthorizationLink(listener) {
      linkListeners.add(listener);
      return () => linkListeners.delete(listener);
    },
    useOAuthCallbackUrl(url) {
      if (config.mcp.oauthCallbackUrl === undefined) callbackUrl = url;
    },
    clientMetadataDocument() {
      const clientMetadataUrl = clientMetadataUrlNow();
      return clientMetadataUrl === undefined ? undefined : createClientMetadataDocument({ clientMetadataUrl, redirectUrl: callbackUrl });
    },
    async completeAuthorization({ state, code }) {
      const connection = connections.find((candidate) => candidate.pendingAuthorizationState() === state);
      if (!connection) return { ok: false, error: 'no MCP server is waiting for this authorization (the link was used already, or is stale)' };
      const completed = await connection.completeAuthorization(code);
      return completed.ok ? { ok: true, server: connection.name } : completed;
    },
    async start() {
      const [connectionModule, toolModule] = await Promise.all([import('./mcp-server-connection.js'), import('./to-mcp-tool.js')]);
      if (stopped) return;
      toMcpTool = toolModule.toMcpTool;
      connections = Object.entries(config.mcp.servers).map(([name, server]) =>
        connectionModule.createMcpServerConnection({
          name,
          config: server,
          path: config.mcp.path,
          sandbox,
          defaultLimits: config.tools.limits,
          timezone: config.agent.timezone,
          logger,
          retryMaxMs: config.mcp.retryMaxSeconds * 1000,
          onToolsChanged: rebuild,
          oauth: {
            secretKey: config.mcp.secretKey,
            dataDir: config.storage.dataDir,
            probeOnly: options.probeOnly === true,
            redirectUrl: () => callbackUrl,
            clientMetadataUrl: clientMetadataUrlNow,
            onAuthorizationLink: (server, link) => {
              for (const listener of linkListeners) listener(server, link);
            },
          },
          audit: options.audit ?? (() => undefined),
          liveElicitationMs: config.approvals.timeoutMinutes * 60_000,
          ...(options.sample === undefined ? {} : { sample: options.sample }),
        }),
      );
      await Promise.all(
        connections.map((connection) => {
          const timeoutMs = (config.mcp.servers[connection.name]?.startupTimeoutSeconds ?? 10) * 1000;
          let timer: NodeJS.Timeout | undefined;
          const waited = new Promise<void>((resolve) => {
            timer = setTimeout(resolve, timeoutMs);
          });
          return Promise.race([connection.start(), waited]).finally(() => clearTimeout(timer));
        }),
      );
    },
    async stop() {
      stopped = true;
      await Promise.all(connections.map((connection) => connection.stop()));
      built = [];
    },
  };
}
