import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import type { AgentRuntime } from '../agent/create-agent-runtime.js';
import type { BudgetControl } from '../budgets/create-budget-control.js';
import type { AppMode, ChannelAdapter } from '../channel/channel-adapter.js';
import type { MessageBus } from '../bus/message-bus.js';
import type { Config } from '../config/config-schema.js';
import type { Channel, EmitResult } from '../events/channel.js';
import type { InboundEvent } from '../events/inbound-event.js';
import type { Gateway } from '../gateway/create-gateway.js';
import { messagesFor as catalogue } from '../i18n/messages.js';
import type { Logger } from '../logging/create-logger.js';
import type { ModelPort } from '../model/model-port.js';
import type { ToolDefinition } from '../registry/define-tool.js';
import type { ToolRegistry } from '../registry/tool-registry.js';
import { hooksSourceName } from '../hooks/hooks-source-name.js';
import { schedulerSourceName } from '../scheduler/create-scheduler.js';
import type { Store } from '../store/key-value-namespace.js';
import type { Telemetry } from '../telemetry/telemetry.js';
import { openTracing } from './open-tracing.js';
import { builtinChannels, channelConfigSections } from './builtin-channels.js';
import { buildRuntime } from './build-runtime.js';
import { buildToolSet, callerBudgetsOf } from './build-tool-set.js';
import { assertDistinctChannelNames } from './check-channel-names.js';
import { createAppControl } from './create-app-control.js';
import { createLifecycle } from './create-lifecycle.js';
import { createModel } from './create-model.js';
import { describeSandboxUse, describeStartUp } from './describe-start-up.js';
import type { SandboxSources } from './exec-sandbox-for.js';
import { noGateway, openGateway } from './open-gateway.js';
import { needsMcpOAuthCallback, wireMcpOAuth } from './wire-mcp-oauth.js';
import { openInfrastructure } from './open-infrastructure.js';
import { serveEvents } from './serve-events.js';
import { createChannelContext, createChannelTable, wireChannels } from './wire-channels.js';
import { wireMcpServer } from './wire-mcp-server.js';
import { wireHooks } from './wire-hooks.js';
import { wireScheduler } from './wire-scheduler.js';
import { consoleLinkIssuer, wireConsole } from './wire-console.js';

export type { AppMode } from '../channel/channel-adapter.js';

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
  /** The HTTP gateway (server mode): /healthz, /metrics and the routes channels mounted; `address()` once started. */
  readonly gateway?: Gateway;
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
 * Builds the whole runtime from config, seam by seam (infrastructure, tool set, runtime, channel wiring): the only
 * place that knows every part. Whatever it opened is closed in reverse order when a step fails (a failure value, or an
 * EchoError thrown for a wrong channel list: `channel-name-duplicate`, `channel-name-mismatch`) and on `stop()`.
 */
export async function createApp(options: AppOptions): Promise<{ ok: true; app: App } | { ok: false; error: string }> {
  const { config, logger } = options;
  const allAdapters = options.channels ?? builtinChannels;
  // Before anything is opened: a name written twice (or the scheduler's) is a bug in the channel list, said at start-up.
  assertDistinctChannelNames(allAdapters, [schedulerSourceName, hooksSourceName]);
  const now = options.now ?? (() => new Date());
  const modelResult = options.model ? { ok: true as const, model: options.model, names: [options.model.name] } : await createModel(config);
  if (!modelResult.ok) return modelResult;
  const workspaceDir = config.tools.workspaceDir ?? join(config.storage.dataDir, 'workspace');
  // File tools and exec work in the workspace: it exists from the first start on.
  await mkdir(workspaceDir, { recursive: true });

  const adapters = allAdapters.filter((adapter) => adapter.modes.includes(options.mode));
  const traits = new Map(adapters.map((adapter) => [adapter.name, adapter.traits(config)]));
  const messagesFor = (channel: string) => catalogue(traits.get(channel)?.locale ?? config.agent.locale);
  const table = createChannelTable();
  const lifecycle = createLifecycle({ logger });
  let requeue = () => {};
  return lifecycle.guard(async () => {
    const tracer = await openTracing({ config, logger, lifecycle });
    const infrastructure = await openInfrastructure({ config, logger, now, lifecycle, channelSections: channelConfigSections(allAdapters), messagesFor, requeued: () => requeue(), callerBudgets: callerBudgetsOf(traits) });
    const toolSet = await buildToolSet({ config, logger, store: infrastructure.store, audit: infrastructure.audit, workspaceDir, traits, activeSurfaces: table.surfaces, lifecycle, sandboxSources: options.sandboxSources, extraTools: options.extraTools, samplingModel: infrastructure.budgets.meter(modelResult.model) });
    if (!toolSet.ok) return toolSet;
    const tools = toolSet.tools;
    // Chat mode opens it too when an MCP server authorizes through a person: the redirect lands on its callback.
    const gateway =
      options.mode === 'server' || (tools.mcp !== undefined && needsMcpOAuthCallback(config))
        ? await openGateway({ config, logger, infrastructure, tools, channels: table.channels, lifecycle })
        : undefined;
    const context = createChannelContext({ config, logger, mode: options.mode, infrastructure, messagesFor, gateway: gateway ?? noGateway, terminal: options.terminal });
    const scheduler = await wireScheduler(context);
    const consoleLinks = consoleLinkIssuer({ config, infrastructure, now, gateway });
    const built = await buildRuntime({ config, logger, now, model: modelResult.model, tracer, infrastructure, tools, scheduler: scheduler.scheduler, workspaceDir, traits, activeSurfaces: table.surfaces, channels: table.channels, messagesFor, consoleLinks });
    if (!built.ok) return built;
    const { runtime, media } = built.wired;
    const mcpServerLine = gateway ? await wireMcpServer({ config, logger, infrastructure, wired: built.wired, gateway }) : undefined;
    const consoleLine = await wireConsole({ config, logger, now, infrastructure, gateway, wired: built.wired, scheduler, surfaces: table.surfaces, lifecycle });
    // A retried parked message goes back through the journal, a retried resumption through the resumption sweep.
    requeue = () =>
      void Promise.all([infrastructure.events.intake.redrive(), runtime.resumeSettled()]).catch((error: unknown) => logger.warn({ err: error }, 'retried turn not queued yet; the next sweep queues it'));
    // Turns wait for the MCP servers' first connection (each bounded by its start-up timeout); the channels and the
    // ready line do not, so start-up is never delayed and no early turn misses their tools.
    let releaseTurns = () => {};
    const turnsMayStart = tools.mcp ? new Promise<void>((resolve) => (releaseTurns = resolve)) : Promise.resolve();
    serveEvents({ infrastructure, runtime, logger, messagesFor, turnsMayStart });

    const channels = await wireChannels({ adapters, traits, context: { ...context, turns: { cancel: runtime.cancelTurn } }, outbox: infrastructure.outbox, scheduler, table, lifecycle });
    const hooksLine = gateway ? await wireHooks({ config, logger, now, infrastructure, gateway, channels: table.channels, lifecycle }) : undefined;
    wireMcpOAuth({ config, logger, mcp: tools.mcp, gateway, outbox: infrastructure.outbox, surfaces: table.surfaces });
    const sandboxLine = describeSandboxUse(tools, adapters.map((adapter) => adapter.name));
    if (sandboxLine) logger.info(sandboxLine);
    const startupLines = [...describeStartUp({ config, modelNames: modelResult.names, store: infrastructure.store, tools, firstChannel: adapters[0]?.name ?? '', wired: channels.wired, gateway }), ...[mcpServerLine, consoleLine].filter((line) => line !== undefined)];
    const control = createAppControl({ config, logger, infrastructure, tools, runtime, media, channels: table.channels, gateway, lifecycle, releaseTurns, sweepEveryMs: options.sweepEveryMs ?? 15_000 });
    const app: App = {
      config,
      store: infrastructure.store,
      bus: infrastructure.events.bus,
      runtime,
      registry: tools.registry,
      telemetry: infrastructure.telemetry,
      gateway,
      budgets: infrastructure.budgets.control,
      accept: (event) => infrastructure.events.intake.accept(event),
      channels: table.channels,
      chatChannels: [...table.surfaces().keys()],
      startupLines: hooksLine === undefined ? startupLines : [...startupLines, hooksLine],
      terminalEnded: channels.terminalEnded,
      start: control.start,
      stop: control.stop,
    };
    return { ok: true as const, app };
  });
}
