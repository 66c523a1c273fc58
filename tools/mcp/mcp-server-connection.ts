import { Client, type ElicitResult, ProtocolError, StreamableHTTPClientTransport, type Transport, UnauthorizedError } from '@modelcontextprotocol/client';
import { DEFAULT_INHERITED_ENV_VARS, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { McpServerConfig } from '../../src/config/config-schema.js';
import type { Logger } from '../../src/logging/create-logger.js';
import type { ExecSandbox, SandboxLimits } from '../exec-sandbox.js';
import { createCallCgroup, removeCallCgroup } from '../pids-cgroups.js';
import { buildServerLaunch } from './build-server-launch.js';
import type { ToolServerStatus } from '../../src/registry/dynamic-tool-source.js';
import type { ToolOutcome } from '../../src/registry/tool-outcome.js';
import { backoffDelay } from '../../src/retry/backoff-delay.js';
import { formatMcpResult, type McpCallResult } from './format-mcp-result.js';
import type { RemoteTool } from './to-mcp-tool.js';
import { createMcpOAuthSession, type McpOAuthContext, type McpOAuthSession } from './create-mcp-oauth-session.js';
import type { AuditEntry } from '../../src/registry/audit-log.js';
import type { ElicitationAnswer } from '../../src/registry/elicitation.js';
import { createSamplingHandler, type McpSampler } from './sampling-handler.js';
import { createElicitationBroker, type ElicitationRequestParams, type McpCallContext } from './elicitation-broker.js';

/** What one server connection is built from. */
export type McpServerConnectionOptions = {
  readonly name: string;
  readonly config: McpServerConfig;
  /** PATH for a stdio child. */
  readonly path: string;
  /** The sandbox a stdio child runs in (exec's), and the limits it has unless its config says otherwise. */
  readonly sandbox: ExecSandbox;
  readonly defaultLimits: SandboxLimits;
  /** TZ for a stdio child. */
  readonly timezone?: string;
  readonly logger: Logger;
  /** Longest wait between reconnection attempts. */
  readonly retryMaxMs: number;
  /** Told whenever the server's tools change: listed, refreshed (`tools/list_changed`) or withdrawn (down). */
  readonly onToolsChanged: () => void;
  /** For a server with `oauth`: the key, the callback and the way to a person. */
  readonly oauth?: McpOAuthContext;
  /** Where elicitation requests and answers are recorded. */
  readonly audit: (entry: AuditEntry) => void;
  /** How long a call suspended on a person's answer keeps waiting on the server (the approval window). */
  readonly liveElicitationMs: number;
  /** The agent's model for `sampling/createMessage`; declared only when the server's config says `sampling: true`. */
  readonly sample?: McpSampler;
};

/** How one call is made: the turn it serves, its deadline, and the person's answer when it is resumed after an elicitation. */
export type McpCallOptions = {
  readonly signal: AbortSignal;
  readonly timeoutMs: number;
  readonly context: McpCallContext;
  readonly elicitationAnswer?: ElicitationAnswer;
};

/** One MCP server: connects, lists its tools, follows their changes, reconnects with backoff while it is down. */
export type McpServerConnection = {
  readonly name: string;
  /** The first connection attempt; resolves when it succeeded or failed (a failure schedules retries). */
  start(): Promise<void>;
  /** Its tools now; none while it is down. */
  tools(): readonly RemoteTool[];
  status(): ToolServerStatus;
  /** Calls a tool; "unavailable" (never a throw) when the server is down or drops during the call. */
  call(remoteName: string, input: Readonly<Record<string, unknown>>, options: McpCallOptions): Promise<ToolOutcome>;
  /** Closes the connection (a stdio child is stopped) and stops retrying. */
  stop(): Promise<void>;
  /** The state of the authorization link out now (OAuth servers waiting for a person). */
  pendingAuthorizationState(): string | undefined;
  /** Finishes the authorization-code flow with the code the callback brought, then connects. */
  completeAuthorization(code: string): Promise<{ readonly ok: true } | { readonly ok: false; readonly error: string }>;
};

const clientInfo = { name: 'echo-agent', version: '0.1.0' };
const probeTimeoutMs = 5000;

/** Creates the connection; nothing happens until `start()`. */
export function createMcpServerConnection(options: McpServerConnectionOptions): McpServerConnection {
  const { name, config, logger } = options;
  const log = logger.child({ mcpServer: name });
  let state: ToolServerStatus['state'] = 'starting';
  let listed: readonly RemoteTool[] = [];
  let lastError: string | undefined;
  let client: Client | undefined;
  // The attempt under way, so stop() can close it (its child too) before it has connected.
  let connecting: Client | undefined;
  // Closes in progress (a stdio child may take 2 s to go): stop() waits for them, so no child outlives the app.
  const closing = new Set<Promise<void>>();
  const close = (target: Client | undefined): Promise<void> => {
    if (!target) return Promise.resolve();
    const done = target.close().catch((error: unknown) => log.debug({ err: error }, `MCP server ${name} did not close cleanly`));
    closing.add(done);
    void done.finally(() => closing.delete(done));
    return done;
  };
  let generation = 0;
  // Each connection attempt is a generation; its loss is handled once (close, failed probe and failed connect may all report it).
  let handledGeneration = 0;
  let failures = 0;
  let retryTimer: NodeJS.Timeout | undefined;
  let retryAt: Date | undefined;
  let stopped = false;
  const oauthSession: { readonly ok: true; readonly session: McpOAuthSession } | { readonly ok: false; readonly error: string } | undefined =
    config.oauth === undefined || options.oauth === undefined ? undefined : createMcpOAuthSession({ name, config, context: options.oauth, logger: log });
  const session = oauthSession?.ok ? oauthSession.session : undefined;

  const sampler = config.sampling && options.sample ? createSamplingHandler({ server: name, sample: options.sample, audit: options.audit }) : undefined;
  const broker = createElicitationBroker({ server: name, audit: options.audit, logger: log, liveWaitMs: options.liveElicitationMs });

  const setTools = (tools: readonly RemoteTool[]) => {
    listed = tools;
    options.onToolsChanged();
  };

  /** Marks the server down (once per connection), withdraws its tools and schedules the next attempt. */
  const lose = (reason: string, lostGeneration: number) => {
    if (stopped || lostGeneration !== generation || handledGeneration === lostGeneration) return;
    handledGeneration = lostGeneration;
    state = 'down';
    lastError = reason;
    const lostClient = client;
    client = undefined;
    void close(lostClient);
    log.warn({ reason }, `MCP server ${name} is down; its tools are withdrawn`);
    setTools([]);
    // A link is out: another attempt would only send another one. The callback connects again.
    if (session?.isAwaitingPerson()) return;
    const delay = Math.max(500, backoffDelay(failures, { baseMs: 1000, maxMs: options.retryMaxMs }));
    failures += 1;
    retryAt = new Date(Date.now() + delay);
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      retryAt = undefined;
      void connect();
    }, delay);
    retryTimer.unref();
  };

  async function connect(): Promise<void> {
    if (stopped) return;
    generation += 1;
    const current = generation;
    const next = new Client(clientInfo, {
      // Form and URL elicitation are answered in the chat; sampling only for a server whose config turns it on.
      capabilities: { elicitation: { form: { applyDefaults: true }, url: {} }, ...(sampler ? { sampling: {} } : {}) },
      listChanged: {
        tools: {
          debounceMs: 100,
          onChanged: (error, tools) => {
            if (current !== generation || stopped) return;
            if (error) log.warn({ err: error }, `MCP server ${name}: refreshing its tools failed`);
            else if (tools) setTools(tools as readonly RemoteTool[]);
          },
        },
      },
    });
    next.setRequestHandler('elicitation/create', (request) => broker.handle(request.params as ElicitationRequestParams) as Promise<ElicitResult>);
    if (sampler) next.setRequestHandler('sampling/createMessage', (request) => sampler(request.params));
    connecting = next;
    try {
      const transport = createTransport();
      const attempt = (async () => {
        await next.connect(transport);
        return (await next.listTools()).tools as readonly RemoteTool[];
      })();
      const tools = await withTimeout(attempt, config.startupTimeoutSeconds * 1000, `no answer within ${config.startupTimeoutSeconds} s`);
      if (stopped || current !== generation) {
        await close(next);
        return;
      }
      // Watched only once connected: a failed attempt is reported by the catch below, with its reason.
      next.onclose = () => lose('the connection closed', current);
      next.onerror = (error) => {
        // Streamable HTTP reports a dropped stream here without closing: ask the server whether it is still there.
        log.debug({ err: error }, `MCP server ${name}: transport error`);
        if (current === generation && state === 'up') void probe(current);
      };
      client = next;
      state = 'up';
      failures = 0;
      lastError = undefined;
      log.info({ tools: tools.length }, `MCP server ${name} is up`);
      session?.scheduleRefresh();
      setTools(tools);
    } catch (error) {
      // A failed attempt counts as a lost connection: down, with retries.
      const reason = error instanceof UnauthorizedError && session?.isAwaitingPerson() ? 'waiting for a person to authorize echo-agent (the link went to an approver)' : describe(error);
      lose(`could not connect: ${reason}`, current);
      await close(next);
    } finally {
      if (connecting === next) connecting = undefined;
    }
  }

  async function probe(current: number): Promise<boolean> {
    try {
      await client?.ping({ timeout: probeTimeoutMs });
      return client !== undefined;
    } catch (error) {
      lose(`it stopped answering: ${describe(error)}`, current);
      return false;
    }
  }

  function createTransport(): Transport {
    if (config.url !== undefined) {
      if (oauthSession !== undefined && !oauthSession.ok) throw new Error(oauthSession.error);
      return new StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers: { ...config.headers } }, ...(session ? { authProvider: session.provider } : {}) });
    }
    const processes = config.limits.processes ?? options.defaultLimits.processes;
    const cgroupDir = createCallCgroup(options.sandbox.enforcement?.pidsCgroupDir, processes);
    const built = buildServerLaunch({ server: config, sandbox: options.sandbox, path: options.path, timezone: options.timezone, defaultLimits: options.defaultLimits, cgroupDir, inheritedNames: DEFAULT_INHERITED_ENV_VARS });
    if (!built.ok) {
      removeCallCgroup(cgroupDir);
      throw new Error(built.error);
    }
    const transport = new StdioClientTransport({ ...built.launch, args: [...built.launch.args], stderr: 'pipe' });
    const closed = transport.onclose;
    // The cgroup goes with the child: removed once it has exited.
    transport.onclose = () => {
      removeCallCgroup(cgroupDir);
      closed?.();
    };
    let pending = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      const lines = (pending + chunk.toString('utf8')).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) if (line.trim() !== '') log.debug({ stderr: line }, `MCP server ${name} says`);
    });
    return transport;
  }

  return {
    name,
    start: () => connect(),
    tools: () => listed,
    status: () => ({
      state,
      tools: listed.length,
      ...(config.oauth === undefined ? {} : { auth: session?.describe() ?? `refused: ${oauthSession?.ok === false ? oauthSession.error : 'no OAuth context'}` }),
      ...(lastError === undefined ? {} : { error: lastError }),
      ...(retryAt === undefined ? {} : { retryAt: retryAt.toISOString() }),
    }),
    async call(remoteName, input, callOptions) {
      const current = generation;
      const active = client;
      if (!active || state !== 'up') return unavailable(name, lastError);
      // While a person answers, the call outlives the tool's timeout (up to the live window), so the request's own
      // timeout covers both; the broker's signal stops it earlier.
      const requestTimeout = callOptions.timeoutMs + options.liveElicitationMs + 1000;
      const start = async (signal: AbortSignal): Promise<ToolOutcome> => {
        try {
          const result = await active.callTool({ name: remoteName, arguments: { ...input } }, { signal, timeout: requestTimeout });
          session?.noteWorking();
          return formatMcpResult(result as McpCallResult);
        } catch (error) {
          if (signal.aborted) return { ok: false, error: 'The call was stopped.', kind: 'business' };
          // The server answered with an error: the call was wrong, not the connection.
          if (error instanceof ProtocolError) return { ok: false, error: `The MCP server "${name}" refused the call: ${error.message}`, kind: 'business' };
          if (await probe(current)) return { ok: false, error: `The MCP server "${name}" failed: ${describe(error)}`, kind: 'business' };
          return unavailable(name, lastError);
        }
      };
      return broker.run({ context: callOptions.context, signal: callOptions.signal, start, ...(callOptions.elicitationAnswer === undefined ? {} : { answer: callOptions.elicitationAnswer }) });
    },
    pendingAuthorizationState: () => (session?.isAwaitingPerson() ? session.provider.pendingState() : undefined),
    async completeAuthorization(code) {
      if (!session) return { ok: false, error: `the MCP server "${name}" does not use OAuth` };
      const completed = await session.complete(code);
      if (!completed.ok || stopped) return completed;
      clearTimeout(retryTimer);
      retryTimer = undefined;
      retryAt = undefined;
      await connect();
      return state === 'up' ? { ok: true } : { ok: false, error: lastError ?? `the MCP server "${name}" did not connect` };
    },
    async stop() {
      stopped = true;
      state = 'stopped';
      session?.stop();
      broker.close();
      clearTimeout(retryTimer);
      const active = client;
      const attempt = connecting;
      client = undefined;
      connecting = undefined;
      listed = [];
      await Promise.all([close(attempt), close(active), ...closing]);
    },
  };
}

/** What the model reads when it calls a tool of a server that is down. */
function unavailable(server: string, reason: string | undefined): ToolOutcome {
  return { ok: false, error: `Unavailable: the MCP server "${server}" is down${reason ? ` (${reason})` : ''}. Do without this tool or try again later.`, kind: 'business' };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function withTimeout<T>(promise: Promise<T>, milliseconds: number, reason: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(reason)), milliseconds);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
