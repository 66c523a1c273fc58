import { type AgentCard, TaskState } from '@a2a-js/sdk';
import { DefaultExecutionEventBusManager, ServerCallContext } from '@a2a-js/sdk/server';
import { assertNever } from '../../src/events/assert-never.js';
import type { Channel, ChannelStatus, Emit } from '../../src/events/channel.js';
import type { Delivery, OutboundEvent } from '../../src/events/outbound-event.js';
import type { HttpRoute } from '../../src/gateway/http-route.js';
import type { Logger } from '../../src/logging/create-logger.js';
import { createRateLimiter } from '../../src/mcp-server/create-rate-limiter.js';
import type { Store } from '../../src/store/key-value-namespace.js';
import type { Telemetry } from '../../src/telemetry/telemetry.js';
import type { TurnControl } from '../../src/events/turn-control.js';
import type { A2aConfig } from './a2a-config.js';
import { createA2aExecutor, publishChange } from './a2a-executor.js';
import { createRequestHandler } from './create-request-handler.js';
import { createStopTaskWork } from './stop-task-work.js';
import type { A2aServerStrings } from './a2a-server-strings.js';
import { createA2aTaskStore, type StoredA2aTask } from './a2a-task-store.js';
import { buildAgentCard } from './agent-card.js';
import { createAgentCardRoute } from './agent-card-route.js';
import { createRpcRoute } from './rpc-route.js';
import { applyChange, changeFor, isFinalState } from './task-events.js';
import { createTaskTurns, type TurnOutcome } from './task-turns.js';
import { taskIdOfChat } from './to-event.js';

/** What the channel is built from. */
export type A2aServerChannelOptions = {
  /** The channel's name, as the core hands it over. */
  readonly name: string;
  readonly settings: A2aConfig;
  /** echo-agent's version, on the card. */
  readonly version: string;
  readonly strings: A2aServerStrings;
  readonly store: Store;
  readonly telemetry: Telemetry;
  /** Stops a canceled task's turn (the core's). */
  readonly turnControl: TurnControl;
  readonly logger: Logger;
  readonly now?: () => Date;
};

/** The A2A server: its routes for the gateway, and the Channel the outbox sends a task's answers to. */
export type A2aServerChannel = Channel & { readonly routes: readonly HttpRoute[] };

/**
 * Creates the channel: the Agent Card and the JSON-RPC endpoint, the SDK's request handler over a task store in
 * echo-agent's store, and an executor that runs each task as an unattended turn. A turn's answer completes its task
 * (through the executor while it waits, else straight in the store, so a task answered after a restart completes).
 */
export function createA2aServerChannel(options: A2aServerChannelOptions): A2aServerChannel {
  const now = options.now ?? (() => new Date());
  const turns = createTaskTurns();
  const tasks = createA2aTaskStore(options.store.namespace<StoredA2aTask>(`${options.name}-tasks`));
  const buses = new DefaultExecutionEventBusManager();
  let emit: Emit | undefined;
  let state: ChannelStatus = { state: 'stopped' };
  let stopListening: (() => void) | undefined;
  const stopTaskWork = createStopTaskWork({ channel: options.name, turnControl: options.turnControl, logger: options.logger });
  const storedTask = async (taskId: string) => {
    const found = await tasks.read(taskId);
    return found === undefined ? undefined : { owner: found.owner, contextId: found.task.contextId };
  };
  const executor = createA2aExecutor({ channel: options.name, turns, strings: options.strings, emit: () => emit, now, logger: options.logger, stopTaskWork, storedTask });
  // The handler's own card names no URL it would be asked on; the card route builds the served one per request.
  const card: AgentCard = buildAgentCard(options.settings, options.settings.publicUrl ?? 'http://localhost', options.version);
  const requestHandler = createRequestHandler({ card, tasks, executor, buses, stopTaskWork, storedTask });
  const routes: HttpRoute[] = [
    createAgentCardRoute({ settings: options.settings, version: options.version }),
    createRpcRoute({ keys: options.settings.keys, requestHandler, rateLimiter: createRateLimiter(), bodyLimitBytes: options.settings.bodyLimitBytes, logger: options.logger }),
  ];

  /** Hands an outcome to the executor waiting for the chat's task, or applies it to the stored task. */
  async function settle(chatId: string, outcome: TurnOutcome): Promise<Delivery> {
    if (turns.settle(chatId, outcome)) return { ok: true };
    const taskId = taskIdOfChat(chatId);
    const found = taskId === undefined ? undefined : await tasks.read(taskId);
    // A task canceled, or answered already, keeps its end.
    if (found === undefined || isFinalState(found.task.status?.state)) return { ok: true };
    const task = { taskId: found.task.id, contextId: found.task.contextId };
    const change = changeFor(outcome, task, now());
    await tasks.write(found.owner, applyChange(found.task, change));
    // A caller still subscribed to the task (a stream left open at input-required) sees the change too.
    const context = new ServerCallContext({ user: { isAuthenticated: true, userName: found.owner } });
    const bus = buses.getByTaskId(found.task.id, context);
    if (bus !== undefined) {
      publishChange(bus, task, change);
      if (isFinalState(change.status.state)) {
        bus.finished();
        buses.cleanupByTaskId(found.task.id, context);
      }
    }
    options.logger.info({ taskId: found.task.id, state: TaskState[change.status.state] }, 'A2A task updated after its request');
    return { ok: true };
  }

  async function send(event: OutboundEvent): Promise<Delivery> {
    const chatId = event.target.chatId;
    switch (event.type) {
      case 'typing':
      case 'approval-resolved':
      case 'action-answered':
        return { ok: true };
      case 'reply':
        // Drafts and messages before the answer are not carried: the task's answer is its final reply.
        if (event.kind !== 'final') return { ok: true };
        return settle(chatId, { kind: 'answered', text: event.text, failed: event.failure !== undefined });
      case 'approval-requested':
        return settle(chatId, { kind: 'needs-person', text: options.strings.waitingForPerson(event.approval.summary) });
      case 'question-asked':
        return settle(chatId, { kind: 'needs-person', text: options.strings.waitingForPerson(event.text) });
      case 'file':
        return { ok: true };
      default:
        return assertNever(event, 'outbound event');
    }
  }

  return {
    name: options.name,
    routes,
    async start(nextEmit) {
      emit = nextEmit;
      const sessionPrefix = `${options.name}:`;
      // A turn that stopped for a person (its card went to the approvers' chats) or ended with no answer.
      stopListening = options.telemetry.onTurnFinished((report) => {
        // A canceled task keeps its end; its turn reports `cancelled` once stopped.
        if (!report.sessionKey.startsWith(sessionPrefix) || report.status === 'cancelled') return;
        const chatId = report.sessionKey.slice(sessionPrefix.length);
        if (report.status === 'suspended') void settle(chatId, { kind: 'needs-person', text: options.strings.waitingForPerson(report.text ?? '') }).catch((error: unknown) => options.logger.warn({ err: error }, 'A2A task not updated'));
        else if (report.delivery === undefined) void settle(chatId, { kind: 'answered', failed: report.status !== 'completed', text: report.text ?? options.strings.turnEnded(report.status) }).catch((error: unknown) => options.logger.warn({ err: error }, 'A2A task not updated'));
      });
      state = { state: 'running', detail: describeRoutes(routes) };
    },
    send,
    async stop() {
      stopListening?.();
      stopListening = undefined;
      turns.clear();
      emit = undefined;
      state = { state: 'stopped' };
    },
    status: () => state,
  };
}

/** The start-up detail: the routes served. */
export function describeRoutes(routes: readonly HttpRoute[]): string {
  return routes.map((route) => `${route.method} ${route.path}`).join(', ');
}
