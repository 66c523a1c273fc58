import { createAgentRuntime, type AgentRuntime } from '../agent/create-agent-runtime.js';
import { createRunningTurns } from '../agent/running-turns.js';
import { createRiskExplainer } from '../agent/create-risk-explainer.js';
import { type ConsoleDecisionInput, decideInConsole } from '../agent/decide-in-console.js';
import type { ConsoleLinkIssuer, TurnDelivery, TurnGovernance, TurnSettings, TurnState, TurnTools } from '../agent/runtime-dependencies.js';
import type { ApprovalRouteFor } from '../approvals/approval-route.js';
import { type ApprovalsService, createApprovalsService, type DecisionResult } from '../approvals/approvals-service.js';
import type { CallerQuestion } from '../approvals/caller-question.js';
import { type CallerQuestions, createCallerQuestions } from '../approvals/caller-questions.js';
import type { PendingApproval } from '../approvals/pending-approval.js';
import type { SuspendedTurn } from '../approvals/suspended-turn.js';
import type { ChannelTraits } from '../channel/channel-adapter.js';
import type { Config } from '../config/config-schema.js';
import type { Channel } from '../events/channel.js';
import type { Messages } from '../i18n/messages.js';
import type { Logger } from '../logging/create-logger.js';
import type { ModelPort } from '../model/model-port.js';
import { createUrlChecker } from '../policy/network-policy.js';
import type { ToolServices } from '../registry/tool-context.js';
import type { SchedulerPort } from '../scheduling/scheduled-job.js';
import { createApprovalRouting, type ActiveSurfaces } from './approval-routing.js';
import type { ToolSet } from './build-tool-set.js';
import type { Infrastructure } from './open-infrastructure.js';
import { createSmartApprovals } from '../reviewer/create-smart-approvals.js';
import { createEndpointModel } from './create-model.js';
import { traceModelCalls } from '../telemetry/trace-model-calls.js';
import { traceToolCalls } from '../telemetry/trace-tool-calls.js';
import type { TurnTracer } from '../telemetry/turn-tracer.js';
import { type MediaWiring, wireMedia } from './wire-media.js';
import { wireMemory } from './wire-memory.js';

/**
 * The runtime as wired, with the attachment handling it reads through (started and stopped with the app), and the
 * approval service, routing and caller questions echo-agent's MCP server shares with it.
 */
export type WiredRuntime = {
  readonly runtime: AgentRuntime;
  readonly media: MediaWiring;
  readonly approvals: ApprovalsService;
  readonly approvalRouteFor: ApprovalRouteFor;
  /** Present when `mcp.serve` is enabled. */
  readonly callerQuestions?: CallerQuestions;
  /** Decides an approval from the web console, as a press would (cards edited, turn resumed), audited `via: console`. */
  readonly decideInConsole: (input: ConsoleDecisionInput) => Promise<DecisionResult>;
};

/** Builds the agent runtime from its five ports: turn settings, turn state, delivery, tools and governance. */
export async function buildRuntime(input: {
  readonly config: Config;
  readonly logger: Logger;
  readonly now: () => Date;
  readonly model: ModelPort;
  /** Spans of turns, model and tool calls (OpenTelemetry); absent when tracing is off. */
  readonly tracer?: TurnTracer;
  readonly infrastructure: Infrastructure;
  readonly tools: ToolSet;
  readonly scheduler: SchedulerPort;
  readonly workspaceDir: string;
  readonly traits: ReadonlyMap<string, ChannelTraits>;
  readonly activeSurfaces: ActiveSurfaces;
  readonly channels: ReadonlyMap<string, Channel>;
  readonly messagesFor: (channel: string) => Messages;
  /** `/console` links; absent while the console is off. */
  readonly consoleLinks?: ConsoleLinkIssuer;
}): Promise<{ readonly ok: true; readonly wired: WiredRuntime } | { readonly ok: false; readonly error: string }> {
  const { config, logger, now, infrastructure, tools, messagesFor } = input;
  const { store, outbox, audit, budgets, telemetry } = infrastructure;
  const { tracer } = input;
  const model = budgets.meter(tracer === undefined ? input.model : traceModelCalls(input.model, tracer, config.model.primary.provider));
  const approvalRouteFor = createApprovalRouting(config, input.activeSurfaces);
  const smart = await createSmartApprovals({ config, primaryModel: model, store, audit, outbox, messagesFor, approvalRouteFor, now, meter: budgets.meter, createEndpointModel });
  if (!smart.ok) return smart;
  const { history, memory } = await wireMemory({ config, store, model, budgets: budgets.control, logger, now, audit: (entry) => audit.record(entry), recordUsage: budgets.record });
  const checkUrl = createUrlChecker({ mode: config.tools.network, allowHosts: config.tools.allowHosts });
  const servicesFor = (scope: { sessionKey: string; target: { channel: string; chatId: string }; userId: string }): ToolServices => ({
    state: (namespace) => store.namespace(`tool-${namespace}`),
    sendMessage: (text) => outbox.send({ type: 'reply', target: scope.target, text, kind: 'message' }),
    sendFile: async (file) =>
      file.sizeBytes > config.media.maxSendBytes
        ? { ok: false, error: `it is ${file.sizeBytes} bytes, over the ${config.media.maxSendBytes}-byte limit (media.maxSendBytes)`, retryable: false }
        : outbox.send({ type: 'file', target: scope.target, ...file }),
    scheduler: input.scheduler,
    history: () => history.load(scope.sessionKey),
    workspaceDir: input.workspaceDir,
    checkUrl,
    now,
    timezone: config.agent.timezone,
  });
  const approvals = createApprovalsService({
    approvals: store.namespace<PendingApproval>('approvals'),
    index: store.namespace<string[]>('approvals-index'),
    grants: tools.grants,
    audit,
    timeoutMs: config.approvals.timeoutMinutes * 60_000,
    now,
  });
  const media = wireMedia({ config, logger, store, model, channels: input.channels, downloadLimitFor: (channel) => input.traits.get(channel)?.limits?.downloadBytes, audit: audit.record });
  const declared = [...input.traits];
  const settings: TurnSettings = {
    systemPrompt: config.agent.systemPrompt,
    timezone: config.agent.timezone,
    maxIterations: config.agent.maxIterations,
    // One message may take at most half the history budget: the rest is the conversation around it.
    maxMessageChars: Math.floor(config.agent.historyBudgetChars / 2),
    turnTimeoutMs: config.agent.turnTimeoutMs,
    botName: config.agent.name,
    streamingChannels: new Set(declared.filter(([, traits]) => traits.streams).map(([name]) => name)),
    parkAfterInterruptions: config.bus.parkAfterInterruptions,
    numberedChannels: new Set(declared.filter(([, traits]) => traits.approvals?.style === 'numbered').map(([name]) => name)),
    delegation: config.agent.delegation,
  };
  const callerQuestions = config.mcp.serve.enabled
    ? createCallerQuestions({ questions: store.namespace<CallerQuestion>('caller-questions'), openByChat: store.namespace<string[]>('caller-questions-open'), audit, timeoutMs: config.approvals.timeoutMinutes * 60_000, now })
    : undefined;
  // Made here, not by the runtime: the cancels other instances broadcast abort this process's turns too.
  const runningTurns = createRunningTurns({ now });
  infrastructure.events.cancels.subscribe((cancel) => {
    const aborted = runningTurns.cancel(cancel.sessionKey, cancel.by, cancel.at);
    if (aborted > 0) logger.info({ sessionKey: cancel.sessionKey, by: cancel.by, aborted }, 'turn cancelled from another instance');
  });
  const state: TurnState = {
    history,
    memory,
    approvals,
    suspensions: store.namespace<SuspendedTurn>('suspended-turns'),
    openQuestions: store.namespace<string>('open-questions'),
    parkedTurns: infrastructure.parking,
    callerQuestions,
    runningTurns,
    cancelBroadcast: infrastructure.events.cancels,
  };
  const delivery: TurnDelivery = {
    outbox,
    bus: infrastructure.events.bus,
    resumeRequests: infrastructure.resumeRequests,
    // Sub-tasks are journaled like any inbound event: one interrupted by a crash runs again after the restart.
    startSubTask: (event) => infrastructure.events.intake.accept(event),
    instanceId: infrastructure.instanceId,
    logger,
    messagesFor,
    turnFinished: (report) => telemetry.emitTurnFinished(report),
    now,
    ...(tracer === undefined ? {} : { tracer }),
  };
  const turnTools: TurnTools = { model: media.model, readAttachments: media.readAttachments, registry: tracer === undefined ? tools.registry : traceToolCalls(tools.registry, tracer), visibleToolsFor: tools.visibleToolsFor, servicesFor };
  const governance: TurnGovernance = {
    approvalRouteFor,
    explainRisk: createRiskExplainer({ model, timeoutMs: 4000, enabled: config.approvals.explain }),
    smartApprovals: smart.smartApprovals,
    budgets: budgets.control,
    ...(input.consoleLinks === undefined ? {} : { consoleLinks: input.consoleLinks }),
  };
  const runtime = createAgentRuntime(
    { ...settings, ...state, ...delivery, ...turnTools, ...governance },
    { numberedApprovalChannels: settings.numberedChannels },
  );
  const consoleDeps = { ...settings, ...state, ...delivery };
  return { ok: true, wired: { runtime, media, approvals, approvalRouteFor, callerQuestions, decideInConsole: (decision) => decideInConsole(consoleDeps, decision) } };
}
