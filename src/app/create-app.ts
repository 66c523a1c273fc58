import { mkdir } from 'node:fs/promises';
import { hostname, userInfo } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { builtinTools, createExecTool, createProcessGroupTracker, describeExecSandbox, isCatastrophicCommand } from '../../tools/index.js';
import { createAgentRuntime, type AgentRuntime } from '../agent/create-agent-runtime.js';
import { createRiskExplainer } from '../agent/create-risk-explainer.js';
import type { ModelPort } from '../model/model-port.js';
import { createSessionHistory, type SessionHistory, type SessionRecord } from '../agent/session-history.js';
import { createApprovalsService } from '../approvals/approvals-service.js';
import { createApprovalGate, type HardBlock } from '../approvals/create-approval-gate.js';
import { createGrantStore, type Grant } from '../approvals/grants.js';
import { createParkedResumptions } from '../approvals/parked-resumptions.js';
import type { PendingApproval } from '../approvals/pending-approval.js';
import type { SuspendedTurn } from '../approvals/suspended-turn.js';
import { createResumeRequests } from '../agent/resume-requests.js';
import { EchoError } from '../errors/echo-error.js';
import { createId } from '../events/create-id.js';
import type { HttpRoute } from '../events/http-route.js';
import type { InboundEvent } from '../events/inbound-event.js';
import { createDeliveredReplies } from '../journal/delivered-replies.js';
import { createTurnParking } from '../journal/create-turn-parking.js';
import { createInboundJournal, type JournalEntry } from '../journal/inbound-journal.js';
import { createParkedTurns, type ParkedTurn } from '../journal/parked-turns.js';
import { isClaimHeld, turnClaim } from '../cluster/turn-claim.js';
import type { MessageBus } from '../bus/message-bus.js';
import { collectSecrets } from '../config/collect-secrets.js';
import type { Config } from '../config/config-schema.js';
import type { Channel, ChannelStatus, EmitResult } from '../events/channel.js';
import { messagesFor as catalogue } from '../i18n/messages.js';
import type { Logger } from '../logging/create-logger.js';
import { traceContext } from '../logging/trace-context.js';
import { createUrlChecker } from '../policy/network-policy.js';
import { resolveToolSet } from '../policy/resolve-tool-set.js';
import type { ToolDefinition } from '../registry/define-tool.js';
import { createAuditLog } from '../registry/audit-log.js';
import { createReplayGuard } from '../registry/replay-guard.js';
import { openStartedMarkLog } from '../registry/started-mark-log.js';
import type { ToolServices } from '../registry/tool-context.js';
import type { ToolResult } from '../registry/tool-outcome.js';
import { createToolRegistry, type ToolRegistry } from '../registry/tool-registry.js';
import { createStore } from '../store/create-store.js';
import type { Store } from '../store/key-value-namespace.js';
import { createTelemetry, type Telemetry } from '../telemetry/telemetry.js';
import type { BudgetControl } from '../budgets/create-budget-control.js';
import { canAskWhenUnattended, createApprovalRouting } from './approval-routing.js';
import type { ChannelContext, WiredChannel } from './channel-context.js';
import { builtinChannels } from './builtin-channels.js';
import { assertDistinctChannelNames, assertWiredAsNamed } from './check-channel-names.js';
import type { AppMode, ApprovalSurface, ChannelAdapter } from './channel-adapter.js';
import { createBudgets } from './create-budgets.js';
import { createModel } from './create-model.js';
import { createOutbox } from './create-outbox.js';
import { createSmartApprovals } from './create-smart-approvals.js';
import { execSandboxFor, type SandboxSources } from './exec-sandbox-for.js';
import { openEventBus } from './open-event-bus.js';
import { wireMedia } from './wire-media.js';
import { wireCron } from './wire-cron.js';

export type { AppMode } from './channel-adapter.js';

/** What the composition root is built from. */
export type AppOptions = {
  readonly config: Config;
  readonly logger: Logger;
  readonly mode: AppMode;
  /** Terminal streams for `chat` mode. */
  readonly terminal?: { readonly input: Readable; readonly output: Writable };
  /** The channels to offer; each runs in the modes it declares. Default: the built-in ones. */
  readonly channels?: readonly ChannelAdapter[];
  /** Overrides the configured model (tests, benchmarks). */
  readonly model?: ModelPort;
  /** The project root and the files the config was read from: the sandbox hides them (default: the current folder's). */
  readonly sandboxSources?: SandboxSources;
  /** Extra tools beside the built-in catalogue (tests). */
  readonly extraTools?: readonly ToolDefinition[];
  readonly now?: () => Date;
  /** How often overdue approvals are swept, settled turns resumed and unfinished events re-queued; default 15 s. */
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
  /** Usage accounting and budgets. */
  readonly budgets: BudgetControl;
  /** How a channel hands an event in: journaled, then queued (what every channel's `emit` is). */
  accept(event: InboundEvent): Promise<EmitResult>;
  readonly channels: ReadonlyMap<string, Channel>;
  /** Running channels where people chat (and decide cards). */
  readonly chatChannels: readonly string[];
  /** One line per channel: on or off, and why. */
  readonly startupLines: readonly string[];
  /** Resolves when the terminal's input ends (chat mode). */
  readonly terminalEnded?: Promise<void>;
  start(): Promise<void>;
  /** Stops intake, lets in-flight turns finish within `graceMs`, closes the store. */
  stop(graceMs?: number): Promise<{ readonly drained: boolean }>;
};

/**
 * Builds the whole runtime from config: the only place that knows every part. Throws an EchoError when the channel
 * list is wrong (`channel-name-duplicate`, `channel-name-mismatch`): a bug in the build, said at start-up.
 */
export async function createApp(options: AppOptions): Promise<{ ok: true; app: App } | { ok: false; error: string }> {
  const { config, logger } = options;
  // Before anything is opened: a name written twice is a bug in the channel list, said at start-up.
  assertDistinctChannelNames(options.channels ?? builtinChannels);
  const now = options.now ?? (() => new Date());
  const modelResult = options.model ? { ok: true as const, model: options.model, names: [options.model.name] } : await createModel(config);
  if (!modelResult.ok) return modelResult;

  const workspaceDir = config.tools.workspaceDir ?? join(config.storage.dataDir, 'workspace');
  // File tools and exec work in the workspace: it exists from the first start on.
  await mkdir(workspaceDir, { recursive: true });
  const store = await createStore({
    url: config.storage.url,
    dataDir: config.storage.dataDir,
    operationTimeoutMs: config.storage.operationTimeoutMs,
    onError: (error) => logger.warn({ code: error.code }, error.message),
  });
  const telemetry = createTelemetry();
  const instanceId = `${hostname()}-${process.pid}-${createId().slice(0, 8)}`;
  const secrets = collectSecrets(config);
  const fileAudit = createAuditLog({ directory: join(config.storage.dataDir, 'audit'), secrets });
  const audit = {
    ...fileAudit,
    record(entry: Parameters<typeof fileAudit.record>[0]) {
      fileAudit.record(entry);
      telemetry.emitAudit(entry);
    },
  };
  const budgets = await createBudgets({ config, store, telemetry, audit, logger, now });
  const model = budgets.meter(modelResult.model);
  const delivered = createDeliveredReplies(store.namespace<number>('delivered-replies'), config.storage.dedupeHours * 60 * 60_000);
  const outbox = createOutbox({ logger, isClaimHeld, onFinalDelivered: (eventId) => delivered.record(eventId) });
  const journal = createInboundJournal(store.namespace<JournalEntry>('inbound-journal'));
  // Turns interrupted too often are set aside, their chat told once (in the channel's language, known once channels are wired).
  const parking = createTurnParking({
    parked: createParkedTurns(store.namespace<ParkedTurn>('parked-turns'), now),
    journal,
    audit: audit.record,
    logger,
    notify: { outbox, messagesFor: (channel) => messagesFor(channel), turnFinished: (report) => telemetry.emitTurnFinished(report) },
    delivered,
    resumptions: createParkedResumptions({ approvals: store.namespace<PendingApproval>('approvals'), suspensions: store.namespace<SuspendedTurn>('suspended-turns'), now }),
    // A retried message goes back through the journal, a retried resumption through the resumption sweep.
    requeued: () =>
      void Promise.all([events.intake.redrive(), runtime.resumeSettled()]).catch((error: unknown) => logger.warn({ err: error }, 'retried turn not queued yet; the next sweep queues it')),
  });
  let events: Awaited<ReturnType<typeof openEventBus>>;
  try {
    events = await openEventBus({ config, logger, journal, park: parking.park });
  } catch (error) {
    await store.close();
    throw error;
  }
  const { bus, intake } = events;
  const resumeRequests = createResumeRequests({ bus, logger, now });
  const channels = new Map<string, Channel>();
  const adapters = (options.channels ?? builtinChannels).filter((adapter) => adapter.modes.includes(options.mode));
  const traits = new Map(adapters.map((adapter) => [adapter.name, adapter.traits(config)]));
  // Cards can be decided only in channels that are running: known once every channel is wired, below.
  let surfaces: ReadonlyMap<string, ApprovalSurface> = new Map();
  const activeSurfaces = () => surfaces;
  const messagesFor = (channel: string) => catalogue(traits.get(channel)?.locale ?? config.agent.locale);
  const routes: HttpRoute[] = [];
  const context: Omit<ChannelContext, 'channelName'> = {
    config,
    logger,
    store,
    outbox,
    bus,
    telemetry,
    instance: { id: instanceId, mode: events.mode, leadership: events.leadership, handOff: events.handOff },
    messagesFor,
    httpRoutes: () => routes,
    statusOfToolServers: () => mcp?.servers() ?? {},
    statusOfParkedTurns: () => parking.summary(),
    statusOfChannels: () => Object.fromEntries([...channels.entries()].map(([name, channel]) => [name, channel.status()])) as Record<string, ChannelStatus>,
    terminal: options.mode === 'chat' ? { ...(options.terminal ?? { input: process.stdin, output: process.stdout }), userName: userName() } : undefined,
  };

  const cron = await wireCron(context);
  const grants = createGrantStore(store.namespace<Grant[]>('grants-session'), store.namespace<Grant[]>('grants-always'), {
    sessionTtlMs: config.storage.sessionIdleDays * 24 * 60 * 60_000,
  });
  const hardBlocks: HardBlock[] = [(toolName, input) => (toolName === 'exec' ? isCatastrophicCommand((input as { command: string }).command, { workingDirectory: workspaceDir }) : undefined)];
  // Every process a tool starts is tracked, so stop() can kill what is still running.
  const processGroups = createProcessGroupTracker();
  const sandbox = execSandboxFor(config, options.sandboxSources);
  const execTool = createExecTool({ environment: { PATH: config.tools.execPath }, sandbox, tracker: processGroups, limits: config.tools.limits });
  // MCP servers join as a dynamic tool source; the client is loaded only when one is configured.
  const mcpServerNames = Object.keys(config.mcp.servers);
  const mcp = mcpServerNames.length > 0 ? (await import('../../tools/mcp/index.js')).createMcpToolSource({ config, logger, sandbox }) : undefined;
  // A SQLite store's started marks go to a file beside it, one synchronous write each; what an earlier process left
  // there moves into the store before any turn runs.
  const replayGuard = createReplayGuard({
    store: store.namespace<ToolResult>('idempotency'),
    ...(store.localFile === undefined ? {} : { markLog: openStartedMarkLog({ file: `${store.localFile}-started` }) }),
  });
  await replayGuard.recover().catch((error: unknown) => logger.warn({ err: error }, 'started marks of the last run not moved to the store yet; the mark file still answers'));
  const tools = [...builtinTools.filter((tool) => tool.name !== 'exec'), execTool, ...(options.extraTools ?? [])];
  const registryResult = createToolRegistry({
    tools,
    toolSource: mcp,
    onToolRejected: (name, reason) => logger.warn({ tool: name }, `tool not offered: ${reason}`),
    audit,
    replayGuard,
    approvalHook: createApprovalGate({
      hardBlocks,
      require: config.approvals.require,
      autoApprove: config.approvals.autoApprove,
      grants,
      canAskWhenUnattended: canAskWhenUnattended(config, activeSurfaces),
      mode: config.approvals.mode,
    }),
    network: config.tools.network,
    capabilityRules: config.tools.capabilityRules,
    credentials: config.tools.credentials,
    onBackgroundError: (error, what) => logger.warn({ err: error }, `failed ${what}`),
  });
  if (!registryResult.ok) {
    replayGuard.close();
    await events.close();
    await store.close();
    return { ok: false, error: registryResult.error };
  }
  const registry = registryResult.registry;

  const toolSets = new Map<string, ReadonlySet<string>>();
  // Policy is resolved again whenever a dynamic source adds or withdraws tools.
  registry.onChange(() => toolSets.clear());
  const externalPrefixes = mcpServerNames.map((name) => `${name}__`);
  const warned = new Set<string>();
  const visibleToolsFor = (channel: string): ReadonlySet<string> => {
    const cached = toolSets.get(channel);
    if (cached) return cached;
    const resolved = resolveToolSet({ global: config.tools, channel: traits.get(channel)?.tools, externalPrefixes }, registry.names());
    for (const warning of resolved.warnings.filter((line) => !warned.has(line))) {
      warned.add(warning);
      logger.warn(warning);
    }
    toolSets.set(channel, resolved.names);
    return resolved.names;
  };

  const history = fenceHistory(
    createSessionHistory(store.namespace<SessionRecord>('sessions'), {
      budgetChars: config.agent.historyBudgetChars,
      idleTtlMs: config.storage.sessionIdleDays * 24 * 60 * 60_000,
    }),
  );
  const checkUrl = createUrlChecker({ mode: config.tools.network, allowHosts: config.tools.allowHosts });
  const servicesFor = (input: { sessionKey: string; target: { channel: string; chatId: string }; userId: string }): ToolServices => ({
    state: (namespace) => store.namespace(`tool-${namespace}`),
    sendMessage: (text) => outbox.send({ type: 'reply', target: input.target, text, kind: 'message' }),
    sendFile: async (file) =>
      file.sizeBytes > config.media.maxSendBytes
        ? { ok: false, error: `it is ${file.sizeBytes} bytes, over the ${config.media.maxSendBytes}-byte limit (media.maxSendBytes)`, retryable: false }
        : outbox.send({ type: 'file', target: input.target, ...file }),
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

  const approvalRouteFor = createApprovalRouting(config, activeSurfaces);
  const smart = await createSmartApprovals({ config, primaryModel: model, store, audit, outbox, messagesFor, approvalRouteFor, now, meter: budgets.meter });
  if (!smart.ok) {
    replayGuard.close();
    await events.close();
    await store.close();
    return smart;
  }

  const media = wireMedia({ config, logger, store, model, channels, audit: audit.record });
  const runtime = createAgentRuntime(
    {
      model: media.model,
      readAttachments: media.readAttachments,
      registry,
      history,
      approvals,
      suspensions: store.namespace<SuspendedTurn>('suspended-turns'),
      openQuestions: store.namespace<string>('open-questions'),
      outbox,
      bus,
      resumeRequests,
      instanceId,
      logger,
      systemPrompt: config.agent.systemPrompt,
      timezone: config.agent.timezone,
      maxIterations: config.agent.maxIterations,
      // One message may take at most half the history budget: the rest is the conversation around it.
      maxMessageChars: Math.floor(config.agent.historyBudgetChars / 2),
      turnTimeoutMs: config.agent.turnTimeoutMs,
      botName: config.agent.name,
      messagesFor,
      visibleToolsFor,
      approvalRouteFor,
      servicesFor,
      explainRisk: createRiskExplainer({ model, timeoutMs: 4000, enabled: config.approvals.explain }),
      now,
      turnFinished: (report) => telemetry.emitTurnFinished(report),
      streamingChannels: new Set([...traits].filter(([, declared]) => declared.streams).map(([name]) => name)),
      smartApprovals: smart.smartApprovals,
      budgets: budgets.control,
      parkedTurns: parking,
      parkAfterInterruptions: config.bus.parkAfterInterruptions,
    },
    { numberedApprovalChannels: new Set([...traits].filter(([, declared]) => declared.approvals?.style === 'numbered').map(([name]) => name)) },
  );

  // Turns wait for the MCP servers' first connection (each bounded by its start-up timeout); the channels and the
  // ready line do not, so start-up is never delayed and no early turn misses their tools.
  let releaseTurns = () => {};
  const mcpStarted = mcp ? new Promise<void>((resolve) => (releaseTurns = resolve)) : Promise.resolve();
  bus.subscribe(async (event) => {
    const started = performance.now();
    let failed = false;
    await mcpStarted;
    try {
      // A re-run of an event whose answer went out before its process died: answered already, nothing to do.
      if (event.redelivered === true && event.type !== 'turn-resumed' && (await delivered.has(event.id))) {
        logger.info({ eventId: event.id, sessionKey: event.sessionKey }, 're-run of an event already answered; skipped');
        intake.complete(event);
        return;
      }
      await traceContext.run({ traceId: event.traceId, sessionKey: event.sessionKey }, () => runtime.handle(event));
    } catch (error) {
      failed = true;
      // The event stays in the journal (or its suspension in the store): a later sweep runs it again.
      intake.release(event);
      if (error instanceof EchoError && error.code.startsWith('store-')) await reportStoreFailure(event);
      throw error;
    } finally {
      telemetry.emitEventHandled({ type: event.type, channel: event.channel, durationMs: performance.now() - started, failed });
    }
    intake.complete(event);
  });

  /** Tells the person once, in their chat, that the store failed, and ends any webhook wait with that. */
  async function reportStoreFailure(event: InboundEvent): Promise<void> {
    if (event.unattended && event.type !== 'message-received') return;
    const text = messagesFor(event.channel).storeUnavailable;
    const target = { channel: event.channel, chatId: event.chatId, threadId: event.threadId, replyToMessageId: event.messageId };
    const delivery = await outbox.send({ type: 'reply', target, text, kind: 'final', causationId: event.id, failure: { kind: 'store-unavailable' } });
    telemetry.emitTurnFinished({ causationId: event.id, sessionKey: event.sessionKey, status: 'failed', text, delivery });
  }

  const wired: WiredChannel[] = [];
  for (const adapter of adapters) {
    // The core hands each channel its adapter's name; a channel that reports another would silently get no replies.
    const item = await adapter.wire({ ...context, channelName: adapter.name });
    try {
      assertWiredAsNamed(adapter, item);
    } catch (error) {
      replayGuard.close();
      await budgets.close();
      await events.close();
      await store.close();
      throw error;
    }
    wired.push(item);
  }
  // Cron goes last: a catch-up run at start-up must find every channel it may deliver to already started.
  wired.push(cron.wired);
  for (const item of wired) {
    if (item.on) {
      channels.set(item.channel.name, item.channel);
      outbox.register(item.channel);
      routes.push(...(item.routes ?? []));
    }
  }
  surfaces = new Map([...traits].flatMap(([name, declared]) => (declared.approvals && channels.has(name) ? [[name, declared.approvals] as const] : [])));
  const terminalEnded = wired.flatMap((item) => (item.on && item.finished ? [item.finished] : []))[0];
  const firstChannel = adapters[0]?.name ?? '';
  if (adapters.some((adapter) => visibleToolsFor(adapter.name).has('exec'))) logger.info(`exec sandbox: ${describeExecSandbox(sandbox)}`);
  const startupLines = [
    `model: ${modelResult.names.join(' → ')}`,
    `store: ${store.description}`,
    `tools (${config.tools.profile ?? 'messaging'}): ${[...visibleToolsFor(firstChannel)].sort().join(', ')}`,
    ...(config.approvals.mode === 'manual' ? [] : [`approvals: ${config.approvals.mode}${config.approvals.mode === 'smart' ? ` (reviewer: ${config.approvals.reviewerModel ? `${config.approvals.reviewerModel.provider}:${config.approvals.reviewerModel.name}` : 'the primary model'})` : ''}`]),
    ...(mcp ? [`mcp: ${mcpServerNames.map((name) => `${name} (${config.mcp.servers[name]?.url ? 'http' : 'stdio'})`).join(', ')}; their tools join when each is up`] : []),
    ...wired.map((item) => (item.on ? `${item.channel.name}: on (${item.detail})` : `${item.name}: off (${item.reason})`)),
    ...routes.map((route) => `  mounted on the gateway: ${route.method} ${route.path}`),
  ];

  let sweeper: NodeJS.Timeout | undefined;
  let purger: NodeJS.Timeout | undefined;
  const app: App = {
    config,
    store,
    bus,
    runtime,
    registry,
    telemetry,
    budgets: budgets.control,
    accept: (event) => intake.accept(event),
    channels,
    chatChannels: [...activeSurfaces().keys()],
    startupLines,
    terminalEnded,
    async start() {
      // What a crash interrupted runs first, in the order it was accepted, before any new message.
      await intake.redrive();
      await runtime.resumeSettled();
      // Approvals that expired while the process was down are settled right away, then every interval.
      await runtime.sweepExpired();
      await store.purgeExpired().catch((error: unknown) => logger.warn({ err: error }, 'purge of expired rows failed'));
      media.start();
      try {
        for (const channel of channels.values()) await channel.start((event) => intake.accept(event));
      } finally {
        // Once the channels run, the servers start side by side (loading the MCP client then, off the start-up path).
        void (mcp?.start() ?? Promise.resolve()).catch((error: unknown) => logger.error({ err: error }, 'MCP servers did not start')).finally(releaseTurns);
      }
      const sweep = async () => {
        await runtime.sweepExpired();
        await runtime.resumeSettled();
        await intake.redrive();
      };
      sweeper = setInterval(() => void sweep().catch((error: unknown) => logger.error({ err: error }, 'sweep failed')), options.sweepEveryMs ?? 15_000);
      sweeper.unref();
      purger = setInterval(
        () => void store.purgeExpired().then((purged) => logger.debug({ purged }, 'expired rows purged'), (error: unknown) => logger.warn({ err: error }, 'purge of expired rows failed')),
        config.storage.purgeEveryMinutes * 60_000,
      );
      purger.unref();
    },
    async stop(graceMs = 10_000) {
      clearInterval(sweeper);
      clearInterval(purger);
      media.stop();
      // Tools stop with the process: running commands are killed first, so their turns end now, not at their timeout.
      const killed = processGroups.killAll();
      if (killed > 0) logger.info({ killed }, 'killed running tool processes');
      const result = await bus.drain(graceMs);
      for (const channel of [...channels.values()].reverse()) {
        await channel.stop().catch((error: unknown) => logger.warn({ err: error, channel: channel.name }, 'channel did not stop cleanly'));
      }
      await mcp?.stop();
      await fileAudit.flush();
      await registry.flush();
      replayGuard.close();
      await intake.flush();
      await budgets.control.ledger.flush();
      await budgets.close();
      await events.close();
      await store.close();
      return { drained: result.drained };
    },
  };
  return { ok: true, app };
}



function userName(): string {
  try {
    return userInfo().username;
  } catch {
    return hostname();
  }
}

/** History writes check the turn's claim first (cluster mode): a worker whose job moved to another instance writes nothing. */
function fenceHistory(history: SessionHistory): SessionHistory {
  const fenced = async <T>(write: () => Promise<T>): Promise<T> => {
    if (!(await isClaimHeld())) throw new EchoError('turn-fenced', 'This turn was taken over by another instance; its results are not written here.');
    return write();
  };
  // Outside a cluster job there is no claim to check: the write goes straight on, without the promises of the check.
  return {
    ...history,
    append: (sessionKey, messages) => (turnClaim.getStore() === undefined ? history.append(sessionKey, messages) : fenced(() => history.append(sessionKey, messages))),
    update: (sessionKey, change) => (turnClaim.getStore() === undefined ? history.update(sessionKey, change) : fenced(() => history.update(sessionKey, change))),
  };
}
