import { mkdir } from 'node:fs/promises';
import { hostname, userInfo } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { builtinTools, createExecTool, createProcessGroupTracker, describeExecSandbox, isCatastrophicCommand } from '../../tools/index.js';
import { createAgentRuntime, type AgentRuntime } from '../agent/create-agent-runtime.js';
import { createRiskExplainer } from '../agent/create-risk-explainer.js';
import type { ModelPort } from '../agent/model-port.js';
import { createSessionHistory, type SessionRecord } from '../agent/session-history.js';
import { createApprovalsService } from '../approvals/approvals-service.js';
import { createApprovalGate, type HardBlock } from '../approvals/create-approval-gate.js';
import { createGrantStore, type Grant } from '../approvals/grants.js';
import type { PendingApproval } from '../approvals/pending-approval.js';
import type { SuspendedTurn } from '../approvals/suspended-turn.js';
import { createInProcessBus } from '../bus/create-in-process-bus.js';
import type { MessageBus } from '../bus/message-bus.js';
import { collectSecrets } from '../config/collect-secrets.js';
import type { Config } from '../config/config-schema.js';
import type { Channel, ChannelStatus } from '../events/channel.js';
import { messagesFor as catalogue, type Locale } from '../i18n/messages.js';
import type { Logger } from '../logging/create-logger.js';
import { traceContext } from '../logging/trace-context.js';
import { createUrlChecker } from '../policy/network-policy.js';
import { resolveToolSet } from '../policy/resolve-tool-set.js';
import type { ToolDefinition } from '../registry/define-tool.js';
import { createAuditLog } from '../registry/audit-log.js';
import { createReplayGuard } from '../registry/replay-guard.js';
import type { ToolServices } from '../registry/tool-context.js';
import type { ToolResult } from '../registry/tool-outcome.js';
import { createToolRegistry, type ToolRegistry } from '../registry/tool-registry.js';
import { createStore } from '../store/create-store.js';
import type { Store } from '../store/key-value-namespace.js';
import { createTelemetry, type Telemetry } from '../telemetry/telemetry.js';
import { canAskWhenUnattended, createApprovalRouting } from './approval-routing.js';
import type { ChannelContext, WiredChannel } from './channel-context.js';
import { createModel } from './create-model.js';
import { channelToolSelection } from './channel-tool-selection.js';
import { createOutbox } from './create-outbox.js';
import { execSandboxFor } from './exec-sandbox-for.js';
import { wireCli } from './wire-cli.js';
import { wireCron } from './wire-cron.js';
import { wireTelegram } from './wire-telegram.js';
import { wireWebhook } from './wire-webhook.js';
import { wireWechat } from './wire-wechat.js';

/** How the app runs: `server` starts every configured channel; `chat` only the terminal. */
export type AppMode = 'server' | 'chat';

/** What the composition root is built from. */
export type AppOptions = {
  readonly config: Config;
  readonly logger: Logger;
  readonly mode: AppMode;
  /** Terminal streams for `chat` mode. */
  readonly terminal?: { readonly input: Readable; readonly output: Writable };
  /** Overrides the configured model (tests, benchmarks). */
  readonly model?: ModelPort;
  /** Extra tools beside the built-in catalogue (tests). */
  readonly extraTools?: readonly ToolDefinition[];
  readonly now?: () => Date;
  /** How often overdue approvals are swept; default 15 s. */
  readonly sweepEveryMs?: number;
};

/** A running echo-agent. */
export type App = {
  readonly config: Config;
  readonly store: Store;
  readonly bus: MessageBus;
  readonly runtime: AgentRuntime;
  readonly registry: ToolRegistry;
  readonly telemetry: Telemetry;
  readonly channels: ReadonlyMap<string, Channel>;
  /** One line per channel: on or off, and why. */
  readonly startupLines: readonly string[];
  /** Resolves when the terminal's input ends (chat mode). */
  readonly terminalEnded?: Promise<void>;
  start(): Promise<void>;
  /** Stops intake, lets in-flight turns finish within `graceMs`, closes the store. */
  stop(graceMs?: number): Promise<{ readonly drained: boolean }>;
};

/** Builds the whole runtime from config: the only place that knows every part. */
export async function createApp(options: AppOptions): Promise<{ ok: true; app: App } | { ok: false; error: string }> {
  const { config, logger } = options;
  const now = options.now ?? (() => new Date());
  const modelResult = options.model ? { ok: true as const, model: options.model, names: [options.model.name] } : await createModel(config);
  if (!modelResult.ok) return modelResult;

  const workspaceDir = config.tools.workspaceDir ?? join(config.storage.dataDir, 'workspace');
  // File tools and exec work in the workspace: it exists from the first start on.
  await mkdir(workspaceDir, { recursive: true });
  const store = await createStore({ url: config.storage.url, dataDir: config.storage.dataDir });
  const telemetry = createTelemetry();
  const secrets = collectSecrets(config);
  const fileAudit = createAuditLog({ directory: join(config.storage.dataDir, 'audit'), secrets });
  const audit = {
    ...fileAudit,
    record(entry: Parameters<typeof fileAudit.record>[0]) {
      fileAudit.record(entry);
      telemetry.emitAudit(entry);
    },
  };
  const outbox = createOutbox(logger);
  const bus = createInProcessBus({ ...config.bus, logger });
  const channels = new Map<string, Channel>();
  const activeChannels = () => new Set(channels.keys());
  const messagesFor = (channel: string) => catalogue(localeOf(config, channel));
  const context: ChannelContext = {
    config,
    logger,
    store,
    outbox,
    bus,
    telemetry,
    messagesFor,
    httpRoutes: [],
    statusOfChannels: () => Object.fromEntries([...channels.entries()].map(([name, channel]) => [name, channel.status()])) as Record<string, ChannelStatus>,
  };

  const cron = await wireCron(context);
  const grants = createGrantStore(store.namespace<Grant[]>('grants-session'), store.namespace<Grant[]>('grants-always'));
  const hardBlocks: HardBlock[] = [(toolName, input) => (toolName === 'exec' ? isCatastrophicCommand((input as { command: string }).command, { workingDirectory: workspaceDir }) : undefined)];
  // Every process a tool starts is tracked, so stop() can kill what is still running.
  const processGroups = createProcessGroupTracker();
  const sandbox = execSandboxFor(config);
  const execTool = createExecTool({ environment: { PATH: config.tools.execPath }, sandbox, tracker: processGroups });
  const tools = [...builtinTools.filter((tool) => tool.name !== 'exec'), execTool, ...(options.extraTools ?? [])];
  const registryResult = createToolRegistry({
    tools,
    audit,
    replayGuard: createReplayGuard({ store: store.namespace<ToolResult>('idempotency') }),
    approvalHook: createApprovalGate({
      hardBlocks,
      require: config.approvals.require,
      autoApprove: config.approvals.autoApprove,
      grants,
      canAskWhenUnattended: canAskWhenUnattended(config, activeChannels),
    }),
    network: config.tools.network,
    capabilityRules: config.tools.capabilityRules,
    credentials: config.tools.credentials,
    onBackgroundError: (error, what) => logger.warn({ err: error }, `failed ${what}`),
  });
  if (!registryResult.ok) {
    await store.close();
    return { ok: false, error: registryResult.error };
  }
  const registry = registryResult.registry;

  const toolSets = new Map<string, ReadonlySet<string>>();
  const visibleToolsFor = (channel: string): ReadonlySet<string> => {
    const cached = toolSets.get(channel);
    if (cached) return cached;
    const resolved = resolveToolSet({ global: config.tools, channel: channelToolSelection(config, channel) }, registry.names());
    for (const warning of resolved.warnings) logger.warn(warning);
    toolSets.set(channel, resolved.names);
    return resolved.names;
  };

  const history = createSessionHistory(store.namespace<SessionRecord>('sessions'), { budgetChars: config.agent.historyBudgetChars });
  const checkUrl = createUrlChecker({ mode: config.tools.network, allowHosts: config.tools.allowHosts });
  const servicesFor = (input: { sessionKey: string; target: { channel: string; chatId: string }; userId: string }): ToolServices => ({
    state: (namespace) => store.namespace(`tool-${namespace}`),
    sendMessage: (text) => outbox.send({ type: 'reply', target: input.target, text, kind: 'message' }),
    scheduler: cron.scheduler,
    history: () => history.load(input.sessionKey),
    workspaceDir,
    checkUrl,
    now,
    timezone: config.agent.timezone,
  });

  const approvals = createApprovalsService({
    approvals: store.namespace<PendingApproval>('approvals'),
    index: store.namespace<string[]>('approvals-index'),
    grants,
    audit,
    timeoutMs: config.approvals.timeoutMinutes * 60_000,
    now,
  });

  const runtime = createAgentRuntime(
    {
      model: modelResult.model,
      registry,
      history,
      approvals,
      suspensions: store.namespace<SuspendedTurn>('suspended-turns'),
      openQuestions: store.namespace<string>('open-questions'),
      outbox,
      bus,
      logger,
      systemPrompt: config.agent.systemPrompt,
      timezone: config.agent.timezone,
      maxIterations: config.agent.maxIterations,
      turnTimeoutMs: config.agent.turnTimeoutMs,
      botName: config.agent.name,
      messagesFor,
      visibleToolsFor,
      approvalRouteFor: createApprovalRouting(config, activeChannels),
      servicesFor,
      explainRisk: createRiskExplainer({ model: modelResult.model, timeoutMs: 4000, enabled: config.approvals.explain }),
      now,
      turnFinished: (report) => telemetry.emitTurnFinished(report),
      streamingChannels: config.channels.telegram.streaming ? new Set(['telegram']) : new Set(),
    },
    { numberedApprovalChannels: new Set(['wechat', 'cli']) },
  );

  bus.subscribe(async (event) => {
    const started = performance.now();
    let failed = false;
    try {
      await traceContext.run({ traceId: event.traceId, sessionKey: event.sessionKey }, () => runtime.handle(event));
    } catch (error) {
      failed = true;
      throw error;
    } finally {
      telemetry.emitEventHandled({ type: event.type, channel: event.channel, durationMs: performance.now() - started, failed });
    }
  });

  const wired: WiredChannel[] = [];
  let terminalEnded: Promise<void> | undefined;
  if (options.mode === 'chat') {
    const cli = wireCli(context, options.terminal ?? { input: process.stdin, output: process.stdout }, userName());
    wired.push(cli.wired);
    terminalEnded = cli.inputEnded;
  } else {
    wired.push(await wireTelegram(context), await wireWechat(context), await wireWebhook(context));
  }
  // Cron goes last: a catch-up run at start-up must find every channel it may deliver to already started.
  wired.push(cron.wired);
  for (const item of wired) {
    if (item.on) {
      channels.set(item.channel.name, item.channel);
      outbox.register(item.channel);
    }
  }
  if ([...visibleToolsFor('telegram'), ...visibleToolsFor('cli'), ...visibleToolsFor('wechat')].includes('exec')) {
    logger.info(`exec sandbox: ${describeExecSandbox(sandbox)}`);
  }
  const startupLines = [
    `model: ${modelResult.names.join(' → ')}`,
    `store: ${store.description}`,
    `tools (${config.tools.profile ?? 'messaging'}): ${[...visibleToolsFor(options.mode === 'chat' ? 'cli' : 'telegram')].sort().join(', ')}`,
    ...wired.map((item) => (item.on ? `${item.channel.name}: on (${item.detail})` : `${item.name}: off (${item.reason})`)),
  ];

  let sweeper: NodeJS.Timeout | undefined;
  const app: App = {
    config,
    store,
    bus,
    runtime,
    registry,
    telemetry,
    channels,
    startupLines,
    terminalEnded,
    async start() {
      for (const channel of channels.values()) await channel.start((event) => Promise.resolve(bus.publish(event)));
      // Approvals that expired while the process was down are settled right away, then every interval.
      await runtime.sweepExpired();
      sweeper = setInterval(() => void runtime.sweepExpired().catch((error: unknown) => logger.error({ err: error }, 'approval sweep failed')), options.sweepEveryMs ?? 15_000);
      sweeper.unref();
    },
    async stop(graceMs = 10_000) {
      clearInterval(sweeper);
      // Tools stop with the process: running commands are killed first, so their turns end now, not at their timeout.
      const killed = processGroups.killAll();
      if (killed > 0) logger.info({ killed }, 'killed running tool processes');
      const result = await bus.drain(graceMs);
      for (const channel of [...channels.values()].reverse()) {
        await channel.stop().catch((error: unknown) => logger.warn({ err: error, channel: channel.name }, 'channel did not stop cleanly'));
      }
      await fileAudit.flush();
      await registry.flush();
      await store.close();
      return { drained: result.drained };
    },
  };
  return { ok: true, app };
}

function localeOf(config: Config, channel: string): Locale {
  return channel === 'wechat' ? config.channels.wechat.locale : config.agent.locale;
}


function userName(): string {
  try {
    return userInfo().username;
  } catch {
    return hostname();
  }
}

