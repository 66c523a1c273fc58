import { readFile } from 'node:fs/promises';
import type { Channel, ChannelStatus, Emit } from '../../src/events/channel.js';
import type { Delivery, OutboundEvent } from '../../src/events/outbound-event.js';
import { defaultBodyLimitBytes } from '../../src/gateway/read-json-body.js';
import type { HttpRoute } from '../../src/gateway/http-route.js';
import type { Logger } from '../../src/logging/create-logger.js';
import { createUrlChecker } from '../../src/policy/network-policy.js';
import type { Store } from '../../src/store/key-value-namespace.js';
import type { Telemetry } from '../../src/telemetry/telemetry.js';
import { type ChatCallbacks, createChatCallbacks } from './chat-callbacks.js';
import { createSharedRuns } from './shared-runs.js';
import { createIdempotencyStore, type IdempotencyRecord } from './idempotency-store.js';
import { createMessageRoute } from './message-route.js';
import { webhookMessagePath } from './webhook-config.js';
import { defaultWebhookClientName } from './to-event.js';
import { createPendingRuns, type PendingRuns } from './pending-runs.js';
import { type CallbackPolicy, defaultCallbackPolicy, postCallback } from './post-callback.js';
import { createRateLimiter } from './rate-limiter.js';
import { callbackFileLimitBytes, renderCallback } from './render.js';
import { createSeenSignatures, type SeenSignature } from './seen-signatures.js';

/** Messages per minute from all senders together, when the config says nothing. */
export const defaultGlobalRatePerMinute = 600;

/** How many runs, and how much answer text, the channel keeps for requests still waiting. */
export const defaultPendingRunLimits = { maxRuns: 10_000, maxBytes: 16 * 1024 * 1024 } as const;

/** What the webhook channel is built from. */
export type WebhookChannelOptions = {
  /** The channel's name, as the core hands it over. */
  readonly name: string;
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
  /** Bounds of the table of runs whose answer is awaited; defaults 10 000 runs and 16 MiB of kept text. */
  readonly pendingRunLimits?: { readonly maxRuns: number; readonly maxBytes: number };
  readonly bodyLimitBytes?: number;
  readonly store: Store;
  readonly telemetry: Telemetry;
  readonly logger: Logger;
  /** Cluster mode: this instance's id; waited runs are shared through the store so any instance's worker can answer them. */
  readonly shared?: { readonly instanceId: string };
  readonly callbackPolicy?: CallbackPolicy;
  readonly now?: () => Date;
  /** Who the secret's turns are billed to in budgets (user and chat `webhook:<name>`); default `client`. */
  readonly clientName?: string;
};

/** The webhook channel: POST /v1/messages on the gateway, its callbacks and idempotency. */
export type WebhookChannel = Channel & {
  /** POST /v1/messages, for the gateway to serve; absent without a secret. */
  readonly messageRoute?: HttpRoute;
  /** Whether POST /v1/messages is served. */
  readonly messagesEnabled: boolean;
  /** Tests only: accept http:// callback URLs (a local receiver). Never reachable from config or environment. */
  allowHttpCallbacksForTests(): void;
};

/** Creates the webhook channel: signed POST /v1/messages (a route the gateway serves), answers by wait or callback. */
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
  let state: ChannelStatus = { state: 'stopped' };
  let stopListening: (() => void)[] = [];

  const messageRoute =
    secret === undefined
      ? undefined
      : createMessageRoute({
          secret,
          channel: options.name,
          bodyLimitBytes: options.bodyLimitBytes ?? defaultBodyLimitBytes,
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
        });

  async function start(nextEmit: Emit): Promise<void> {
    emit = nextEmit;
    stopListening = [
      options.telemetry.onTurnFinished((report) => {
        if (settleFromReport(pendingRuns, report) || !sharedRuns || !report.sessionKey.startsWith('webhook:')) return;
        // A turn this instance ran for a request another instance holds: the outcome goes there.
        void sharedRuns.forward(report.causationId, { kind: 'finished', status: report.status, text: report.text }).catch((error: unknown) => options.logger.warn({ err: error, runId: report.causationId }, 'outcome not handed to the instance holding the request'));
      }),
      () => sharedRuns?.stop(),
    ];
    state = { state: 'running', detail: describeMessages(secret !== undefined) };
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
    ...(messageRoute ? { messageRoute } : {}),
    messagesEnabled: secret !== undefined,
    start,
    send,
    async stop() {
      for (const stop of stopListening) stop();
      stopListening = [];
      pendingRuns.clear();
      emit = undefined;
      state = { state: 'stopped' };
    },
    status: () => state,
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

/** The start-up detail: whether POST /v1/messages is served. */
export function describeMessages(messagesEnabled: boolean): string {
  return messagesEnabled ? `${webhookMessagePath} on the gateway` : `${webhookMessagePath} off: WEBHOOK_SECRET is not set`;
}
