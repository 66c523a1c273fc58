import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MessageBus } from '../../src/bus/message-bus.js';
import { EchoError } from '../../src/errors/echo-error.js';
import type { Channel, ChannelStatus, Emit } from '../../src/events/channel.js';
import type { HttpRoute } from '../../src/events/http-route.js';
import type { Delivery, OutboundEvent } from '../../src/events/outbound-event.js';
import type { Logger } from '../../src/logging/create-logger.js';
import { createUrlChecker } from '../../src/policy/network-policy.js';
import type { Store } from '../../src/store/key-value-namespace.js';
import type { Telemetry } from '../../src/telemetry/telemetry.js';
import { type ChatCallbacks, createChatCallbacks } from './chat-callbacks.js';
import type { GatewayAppOptions } from './create-gateway-app.js';
import { createDeferredRequestHandler } from './deferred-request-handler.js';
import { messagePath } from './message-path.js';
import { createGatewayMetrics } from './gateway-metrics.js';
import type { ToolServerStatus } from '../../src/registry/dynamic-tool-source.js';
import { createSharedRuns } from './shared-runs.js';
import type { ParkedSummary } from '../../src/journal/create-turn-parking.js';
import { buildHealthReport, type InstanceHealth } from './health-report.js';
import { createIdempotencyStore, type IdempotencyRecord } from './idempotency-store.js';
import { createMessageRoute } from './message-route.js';
import { defaultWebhookClientName } from './to-event.js';
import { createPendingRuns, type PendingRuns } from './pending-runs.js';
import { type CallbackPolicy, defaultCallbackPolicy, postCallback } from './post-callback.js';
import { createRateLimiter } from './rate-limiter.js';
import { createJsonBodyReader } from './read-json-body.js';
import { callbackFileLimitBytes, renderCallback } from './render.js';
import { createSeenSignatures, type SeenSignature } from './seen-signatures.js';

/** Messages per minute from all senders together, when the config says nothing. */
export const defaultGlobalRatePerMinute = 600;

/** How many runs, and how much answer text, the gateway keeps for requests still waiting. */
export const defaultPendingRunLimits = { maxRuns: 10_000, maxBytes: 16 * 1024 * 1024 } as const;

/** Largest accepted body: 1 MiB. */
export const defaultBodyLimitBytes = 1024 * 1024;

/** What the webhook channel is built from. */
export type WebhookChannelOptions = {
  /** The channel's name, as the core hands it over. */
  readonly name: string;
  readonly host: string;
  /** 0 picks a free port (tests); read it back with `address()`. */
  readonly port: number;
  /** HMAC secret; without it POST /v1/messages is not served. */
  readonly secret?: string;
  readonly waitTimeoutMs: number;
  readonly ratePerMinute: number;
  /** Messages per minute from all senders together; default 600. */
  readonly globalRatePerMinute?: number;
  /** Also accept requests signed over the legacy string `timestamp.body`. */
  readonly acceptLegacySignature?: boolean;
  /** Hosts callbacks may reach although they are not public addresses. */
  readonly callbackAllowHosts?: readonly string[];
  /** When set, /metrics and the detailed /healthz need `Authorization: Bearer <token>`. */
  readonly metricsToken?: string;
  /** Bounds of the table of runs whose answer is awaited; defaults 10 000 runs and 16 MiB of kept text. */
  readonly pendingRunLimits?: { readonly maxRuns: number; readonly maxBytes: number };
  readonly bodyLimitBytes?: number;
  readonly store: Store;
  readonly bus: Pick<MessageBus, 'stats'>;
  readonly telemetry: Telemetry;
  readonly logger: Logger;
  readonly statusOfChannels: () => Readonly<Record<string, ChannelStatus>>;
  /** This instance's id, mode and the roles it leads now, read when asked. */
  readonly instance: () => Omit<InstanceHealth, 'queueDepth'>;
  /** Cluster mode: this instance's id; waited runs are shared through the store so any instance's worker can answer them. */
  readonly shared?: { readonly instanceId: string };
  /** MCP servers' states, when any is configured. */
  readonly statusOfToolServers?: () => Readonly<Record<string, ToolServerStatus>>;
  /** Turns set aside after repeated interruptions (a store read; left out of the report when it fails). */
  readonly statusOfParkedTurns?: () => Promise<ParkedSummary>;
  /** Routes other channels serve over the gateway, read when it starts (every channel is wired by then). */
  readonly routes: () => readonly HttpRoute[];
  readonly callbackPolicy?: CallbackPolicy;
  readonly now?: () => Date;
  /** Who the secret's turns are billed to in budgets (user and chat `webhook:<name>`); default `client`. */
  readonly clientName?: string;
};

/** The webhook channel: the HTTP gateway, with its bound address once started. */
export type WebhookChannel = Channel & {
  /** Where the server listens, once started. */
  address(): { readonly host: string; readonly port: number } | undefined;
  /** Whether POST /v1/messages is served. */
  readonly messagesEnabled: boolean;
  /** Tests only: accept http:// callback URLs (a local receiver). Never reachable from config or environment. */
  allowHttpCallbacksForTests(): void;
};

/** Creates the webhook channel: koa on host:port serving /healthz, /metrics, signed POST /v1/messages and mounted routes. */
export function createWebhookChannel(options: WebhookChannelOptions): WebhookChannel {
  const now = options.now ?? (() => new Date());
  const secret = options.secret !== undefined && options.secret !== '' ? options.secret : undefined;
  const callbackPolicy = options.callbackPolicy ?? defaultCallbackPolicy;
  const pendingRuns = createPendingRuns({ maxAgeMs: options.waitTimeoutMs + 60 * 60_000, ...(options.pendingRunLimits ?? defaultPendingRunLimits) });
  // Callbacks follow the same network policy as web_fetch: public addresses only, unless the operator lets a host through.
  const callbackChecker = createUrlChecker({ mode: 'public-only', allowHosts: options.callbackAllowHosts ?? [] });
  const testCallbackChecker = createUrlChecker({ mode: 'allow' });
  const checkCallbackUrl = (url: string) => (allowHttpCallbacks ? testCallbackChecker(url) : callbackChecker(url));
  const chatCallbacks = createChatCallbacks(options.store.namespace<string>('webhook-callbacks'));
  const readBody = createJsonBodyReader({ limitBytes: options.bodyLimitBytes ?? defaultBodyLimitBytes });
  let allowHttpCallbacks = false;
  let emit: Emit | undefined;
  const sharedRuns = options.shared
    ? createSharedRuns({
        store: options.store,
        instanceId: options.shared.instanceId,
        holds: (runId) => pendingRuns.get(runId) !== undefined,
        apply(runId, output) {
          const run = pendingRuns.get(runId);
          if (!run) return;
          if (output.kind === 'event') handOver(pendingRuns, runId, run, output.event);
          else settleFromReport(pendingRuns, { causationId: runId, status: output.status, text: output.text });
        },
        logger: options.logger,
      })
    : undefined;
  let server: Server | undefined;
  let bound: { host: string; port: number } | undefined;
  let state: ChannelStatus = { state: 'stopped' };
  let stopListening: (() => void)[] = [];

  async function start(nextEmit: Emit): Promise<void> {
    emit = nextEmit;
    const routes = options.routes();
    state = { state: 'starting' };
    const metrics = createGatewayMetrics({ telemetry: options.telemetry, bus: options.bus, store: options.store });
    const startedAt = now();
    const gatewayOptions: GatewayAppOptions = {
      logger: options.logger,
      metricsToken: options.metricsToken,
      metrics,
      readBody,
      routes,
      health: async () => {
        const store = await options.store.check();
        const parked = store.state === 'ok' ? await options.statusOfParkedTurns?.().catch(() => undefined) : undefined;
        return buildHealthReport({ channels: options.statusOfChannels(), mcp: options.statusOfToolServers?.(), bus: options.bus.stats(), store, parked, instance: { ...options.instance(), queueDepth: options.bus.stats().queued }, startedAt, now: now() });
      },
      messageRoute:
        secret === undefined
          ? undefined
          : createMessageRoute({
              secret,
              channel: options.name,
              readBody,
              rateLimiter: createRateLimiter({ perMinute: options.ratePerMinute, now }),
              globalRateLimiter: createRateLimiter({ perMinute: options.globalRatePerMinute ?? defaultGlobalRatePerMinute, now }),
              seenSignatures: createSeenSignatures(options.store.namespace<SeenSignature>('webhook-signatures')),
              acceptLegacySignature: options.acceptLegacySignature ?? false,
              checkCallbackUrl,
              idempotency: createIdempotencyStore(options.store.namespace<IdempotencyRecord>('webhook-idempotency')),
              pendingRuns,
              sharedRuns,
              chatCallbacks,
              waitTimeoutMs: options.waitTimeoutMs,
              clientName: options.clientName ?? defaultWebhookClientName,
              emit: () => emit,
              allowHttpCallbacks: () => allowHttpCallbacks,
              now,
              logger: options.logger,
            }),
    };
    // koa, its router and their dependencies load once the server listens (before the first request, or with it).
    const handler = createDeferredRequestHandler({
      build: async () => (await import('./create-gateway-app.js')).createGatewayApp(gatewayOptions).callback(),
      onFailure: (error) => options.logger.error({ err: error }, 'the webhook gateway could not load its request handler'),
    });
    stopListening = [
      metrics.dispose,
      options.telemetry.onTurnFinished((report) => {
        if (settleFromReport(pendingRuns, report) || !sharedRuns || !report.sessionKey.startsWith('webhook:')) return;
        // A turn this instance ran for a request another instance holds: the outcome goes there.
        void sharedRuns.forward(report.causationId, { kind: 'finished', status: report.status, text: report.text }).catch((error: unknown) => options.logger.warn({ err: error, runId: report.causationId }, 'outcome not handed to the instance holding the request'));
      }),
      () => sharedRuns?.stop(),
    ];
    const listening = createServer(handler.handle);
    try {
      await listen(listening, options.host, options.port);
    } catch (error) {
      for (const stop of stopListening) stop();
      const reason = `cannot listen on ${options.host}:${options.port}: ${error instanceof Error ? error.message : String(error)}`;
      // Only health and metrics would be lost: run on without them. Messages or mounted routes are the gateway's job: stop.
      if (secret !== undefined || routes.length > 0) throw new EchoError('webhook-listen-failed', `The webhook gateway ${reason}.`, { cause: error });
      options.logger.error({ err: error }, `webhook gateway ${reason}`);
      state = { state: 'degraded', detail: reason };
      return;
    }
    server = listening;
    const address = listening.address() as AddressInfo;
    bound = { host: options.host, port: address.port };
    state = { state: 'running', detail: describeGateway({ host: options.host, port: address.port, messagesEnabled: secret !== undefined, routes }) };
    void handler.load().catch(() => undefined);
  }

  async function send(event: OutboundEvent): Promise<Delivery> {
    if (event.type === 'typing') return { ok: true };
    const runId = 'causationId' in event ? event.causationId : undefined;
    const run = runId === undefined ? undefined : pendingRuns.get(runId);
    if (runId !== undefined && run !== undefined) {
      const handled = handOver(pendingRuns, runId, run, event);
      if (handled !== undefined) return handled;
    }
    if (runId !== undefined && run === undefined && sharedRuns && event.type !== 'approval-resolved') {
      const forwarded = await sharedRuns.forward(runId, { kind: 'event', event }).catch((error: unknown) => {
        options.logger.warn({ err: error, runId }, 'output not handed to the instance holding the request; it goes to the callback URL');
        return false;
      });
      if (forwarded) return { ok: true };
    }
    // Files travel inline, as base64, only within the limit; a larger one is described and not carried.
    const fileBase64 = event.type === 'file' && event.sizeBytes <= callbackFileLimitBytes ? await readFile(event.path).then((bytes) => bytes.toString('base64')).catch(() => undefined) : undefined;
    const payload = renderCallback(event, fileBase64);
    if (payload === undefined) return { ok: true };
    const sharedCallback = run === undefined && runId !== undefined && sharedRuns ? await sharedRuns.callbackOf(runId).catch(() => undefined) : undefined;
    return deliverToCallback(event.target.chatId, run ?? (sharedCallback === undefined ? undefined : { callbackUrl: sharedCallback }), payload, chatCallbacks);
  }

  /** A run this process knows answers only to its own callback URL; other output (resumed turns, schedules) to the chat's last one. */
  async function deliverToCallback(chatId: string, run: { readonly callbackUrl?: string } | undefined, payload: unknown, callbacks: ChatCallbacks): Promise<Delivery> {
    const url = run === undefined ? await callbacks.find(chatId) : run.callbackUrl;
    if (url === undefined) {
      return { ok: false, error: `Webhook chat "${chatId}" has no callback URL and no request is waiting for its answer.`, retryable: false };
    }
    if (secret === undefined) return { ok: false, error: 'Callbacks are signed with WEBHOOK_SECRET, which is not set.', retryable: false };
    const delivery = await postCallback({ url, secret, payload, policy: callbackPolicy, checkUrl: checkCallbackUrl, now });
    if (!delivery.ok) options.logger.warn({ chatId, error: delivery.error }, 'webhook callback failed');
    return delivery;
  }

  return {
    name: options.name,
    messagesEnabled: secret !== undefined,
    start,
    send,
    async stop() {
      for (const stop of stopListening) stop();
      stopListening = [];
      pendingRuns.clear();
      emit = undefined;
      const closing = server;
      server = undefined;
      bound = undefined;
      state = { state: 'stopped' };
      if (closing) await close(closing);
    },
    status: () => state,
    address: () => bound,
    allowHttpCallbacksForTests() {
      allowHttpCallbacks = true;
    },
  };
}

/**
 * Gives output of a run this process started to whoever waits for it. Returns the delivery when that
 * settles it, or undefined when it should go on to the callback URL.
 */
function handOver(pendingRuns: PendingRuns, runId: string, run: NonNullable<ReturnType<PendingRuns['get']>>, event: OutboundEvent): Delivery | undefined {
  switch (event.type) {
    case 'reply':
      if (event.kind === 'progress') return { ok: true };
      if (event.kind === 'message') {
        pendingRuns.addMessage(runId, event.text);
        return run.heldByRequest ? { ok: true } : undefined;
      }
      pendingRuns.settle(runId, { kind: 'reply', text: event.text, messages: [], ...(event.failure ? { failure: event.failure } : {}) });
      if (run.heldByRequest || (run.hasWaiters && run.callbackUrl === undefined)) return { ok: true };
      return undefined;
    case 'approval-requested':
    case 'question-asked':
      pendingRuns.markWaitingFor(runId, event.type === 'approval-requested' ? 'approval' : 'answer');
      return run.heldByRequest ? { ok: true } : undefined;
    default:
      return undefined;
  }
}

/** The turn ended without a final reply to us (suspended, or failed before one): wake whoever waits; false when no run here waits. */
function settleFromReport(pendingRuns: PendingRuns, report: { readonly causationId: string; readonly status: string; readonly text?: string }): boolean {
  if (pendingRuns.get(report.causationId) === undefined) return false;
  if (report.status === 'suspended') pendingRuns.settle(report.causationId, { kind: 'suspended', waitingFor: pendingRuns.waitingFor(report.causationId) ?? 'approval', detail: report.text });
  else pendingRuns.settle(report.causationId, { kind: 'finished', status: report.status, text: report.text });
  return true;
}

/** The start-up detail: where it listens, whether messages are on, and what else is mounted. */
export function describeGateway(input: { readonly host: string; readonly port: number; readonly messagesEnabled: boolean; readonly routes: readonly HttpRoute[] }): string {
  const parts = [`${input.host}:${input.port}`, input.messagesEnabled ? `${messagePath} on` : `${messagePath} off: WEBHOOK_SECRET is not set`];
  for (const route of input.routes) parts.push(`${route.method} ${route.path}`);
  return parts.join(', ');
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    // Turns were drained before channels stop; whatever is still open (idle keep-alive, a late waiter) is cut.
    server.closeAllConnections();
  });
}
