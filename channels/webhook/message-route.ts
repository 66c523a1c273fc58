import { parseCommand } from '../../src/agent/handle-command.js';
import type { Emit } from '../../src/events/channel.js';
import { createId } from '../../src/events/create-id.js';
import type { Logger } from '../../src/logging/create-logger.js';
import type { ChatCallbacks } from './chat-callbacks.js';
import { errorBody, type FieldIssue, type GatewayErrorCode } from '../../src/gateway/error-response.js';
import type { HttpRequest, HttpResponse, HttpRoute } from '../../src/gateway/http-route.js';
import { failureResponse, type WaitedResponse } from './failure-response.js';
import { type IdempotencyStore, isValidIdempotencyKey } from './idempotency-store.js';
import { parseMessageRequest } from './message-request.js';
import type { SharedRuns } from './shared-runs.js';
import type { PendingRuns } from './pending-runs.js';
import type { RateLimiter } from './rate-limiter.js';
import type { SeenSignatures } from './seen-signatures.js';
import { defaultWebhookSenderId, requestToEvent } from './to-event.js';
import { checkSignatureHeaders, verifySignature } from './verify-signature.js';
import { webhookMessagePath } from './webhook-config.js';

/** Chat commands that decide approvals: a webhook caller is a system, never an approver. */
const decisionCommands = new Set(['approve', 'deny', 'approvals']);

/** What POST /v1/messages is built from. */
export type MessageRouteOptions = {
  readonly secret: string;
  /** Largest accepted body. */
  readonly bodyLimitBytes: number;
  readonly rateLimiter: RateLimiter;
  /** One bucket for all senders together: sender ids are chosen by the caller. */
  readonly globalRateLimiter: RateLimiter;
  readonly seenSignatures: SeenSignatures;
  /** Also accept the legacy signing string `timestamp.body`. */
  readonly acceptLegacySignature: boolean;
  /** Refuses a callback URL that the network policy does not allow (checked again, pinned, when it is used). */
  readonly checkCallbackUrl: (url: string) => Promise<{ readonly ok: true } | { readonly ok: false; readonly reason: string }>;
  readonly idempotency: IdempotencyStore;
  readonly pendingRuns: PendingRuns;
  /** Cluster mode: the run is also written to the store, so the instance that runs its turn can hand the output here. */
  readonly sharedRuns?: Pick<SharedRuns, 'registered' | 'released'>;
  readonly chatCallbacks: ChatCallbacks;
  readonly waitTimeoutMs: number;
  /** The channel's name, as the core hands it over: on every event's envelope and session key. */
  readonly channel: string;
  /** The name the secret's caller is billed under (budgets bind it, not the ids a request sends). */
  readonly clientName: string;
  /** The bus intake, once the channel has started. */
  readonly emit: () => Emit | undefined;
  readonly allowHttpCallbacks: () => boolean;
  readonly now: () => Date;
  readonly logger: Logger;
};

/**
 * POST /v1/messages, in order: signature headers and timestamp (401) → JSON body up to the limit
 * (415, 413) → HMAC over timestamp, Idempotency-Key and raw body (401) → a signature seen before (409,
 * unless it is a retry with the same key) → JSON (400) → shape (422) → callback URL policy (422) →
 * per-sender and global rate (429) → Idempotency-Key (replay, or 422 for another body) → bus (503) →
 * 202 at once, or the answer with `?wait=true`.
 */
export function createMessageRoute(options: MessageRouteOptions): HttpRoute {
  return { method: 'POST', path: webhookMessagePath, bodyLimitBytes: options.bodyLimitBytes, handle };

  async function handle(request: HttpRequest): Promise<HttpResponse> {
    const timestamp = request.headers['x-echo-timestamp'] || undefined;
    const signature = request.headers['x-echo-signature'] || undefined;
    const headers = checkSignatureHeaders({ timestamp, signature, now: options.now() });
    if (!headers.ok || timestamp === undefined || signature === undefined) {
      const failure = headers.ok ? { code: 'signature-missing' as const, message: 'Missing signature headers.' } : headers;
      return refuse(401, failure.code, failure.message);
    }
    const read = await request.readJson();
    if (!read.ok && read.status !== 400) {
      // A body over the limit is dropped as it arrives and the socket closes after it (read-json-body.ts).
      return refuse(read.status, read.code, read.message);
    }
    const rawBody = read.rawBody;
    const idempotencyKey = request.headers['idempotency-key'] || undefined;
    // Nothing about the body is said to a caller who cannot sign it.
    const verified = rawBody === undefined ? undefined : verifySignature({ secret: options.secret, timestamp, signature, rawBody, idempotencyKey, acceptLegacy: options.acceptLegacySignature });
    if (verified !== undefined && !verified.ok) {
      return refuse(401, verified.code, verified.message);
    }
    if (verified !== undefined) {
      const sighting = await options.seenSignatures.sight({ digest: verified.digest, idempotencyKey });
      if (sighting === 'replay') {
        return refuse(409, 'request-replayed', 'This signature was already used: sign each request anew (a retry must carry the same Idempotency-Key).');
      }
    }
    if (!read.ok || rawBody === undefined) {
      return refuse(400, 'json-malformed', read.ok ? 'The body could not be read.' : read.message);
    }
    const parsed = parseMessageRequest(read.body, { allowHttpCallbacks: options.allowHttpCallbacks() });
    if (!parsed.ok) {
      return refuse(422, 'invalid-request', `The body has the wrong shape: ${parsed.fields.map((field) => `${field.path}: ${field.message}`).join('; ')}`, parsed.fields);
    }
    const message = parsed.request;
    const command = parseCommand(message.text);
    if (command !== undefined && decisionCommands.has(command.name)) {
      return refuse(403, 'command-not-allowed', `/${command.name} cannot be sent through the webhook: approvals are decided by people in a chat channel.`);
    }
    if (idempotencyKey !== undefined && !isValidIdempotencyKey(idempotencyKey)) {
      return refuse(400, 'idempotency-key-invalid', 'Idempotency-Key must be 1–255 visible ASCII characters.');
    }
    if (message.callbackUrl !== undefined) {
      const allowed = await options.checkCallbackUrl(message.callbackUrl);
      if (!allowed.ok) {
        return refuse(422, 'callback-url-refused', `callbackUrl is refused: ${allowed.reason}`, [{ path: 'callbackUrl', message: allowed.reason }]);
      }
    }
    const limited = options.rateLimiter.take(message.senderId ?? defaultWebhookSenderId);
    if (!limited.ok) {
      return refuse(429, 'rate-limited', `Too many messages from this sender; retry in ${limited.retryAfterSeconds} s.`, undefined, { 'Retry-After': String(limited.retryAfterSeconds) });
    }
    const limitedOverall = options.globalRateLimiter.take('all senders');
    if (!limitedOverall.ok) {
      return refuse(429, 'rate-limited', `Too many messages to this gateway; retry in ${limitedOverall.retryAfterSeconds} s.`, undefined, { 'Retry-After': String(limitedOverall.retryAfterSeconds) });
    }
    const wait = request.query.wait === 'true' || request.query.wait === '1';
    const runId = createId();

    if (idempotencyKey !== undefined) {
      const claim = await options.idempotency.claim({ key: idempotencyKey, rawBody, runId, now: options.now() });
      const replayed = { 'Idempotent-Replayed': 'true' };
      switch (claim.kind) {
        case 'conflict':
          return refuse(422, 'idempotency-key-reused', 'This Idempotency-Key was used with a different body.');
        case 'answered':
          return answer(claim.response, replayed);
        case 'running':
          return answer(wait ? await waitForReplay(idempotencyKey, rawBody, claim.runId) : { status: 202, body: { runId: claim.runId } }, replayed);
        case 'new':
          break;
      }
    }

    const emit = options.emit();
    // Only a waited run with a key has replays that may ask for its outcome before the answer is stored.
    options.pendingRuns.register({ runId, chatId: message.chatId, callbackUrl: message.callbackUrl, wait, keepOutcome: wait && idempotencyKey !== undefined });
    if (message.callbackUrl !== undefined) await options.chatCallbacks.remember(message.chatId, message.callbackUrl);
    // Before the event is queued: another instance may run its turn at once and must find the run.
    await options.sharedRuns
      ?.registered(runId, { waiting: wait, callbackUrl: message.callbackUrl })
      .catch((error: unknown) => options.logger.warn({ err: error, runId }, 'run not shared with other instances; its answer may go to the callback URL instead'));
    const emitted = emit ? await emit(requestToEvent(message, { channel: options.channel, runId, now: options.now(), clientName: options.clientName })) : ({ accepted: false, reason: 'closed' } as const);
    if (!emitted.accepted) {
      options.pendingRuns.forget(runId);
      if (idempotencyKey !== undefined) await options.idempotency.release(idempotencyKey, runId);
      const retryLater = { 'Retry-After': '5' };
      if (emitted.reason === 'unavailable') return refuse(503, 'store-unavailable', 'The message could not be recorded: the agent\'s storage is not answering. Nothing was run; retry later.', undefined, retryLater);
      return refuse(503, 'busy', emitted.reason === 'busy' ? 'The agent is busy; retry in a moment.' : 'The agent is shutting down; retry later.', undefined, retryLater);
    }
    options.logger.info({ runId, chatId: message.chatId, wait, replayable: idempotencyKey !== undefined }, 'webhook message accepted');

    if (wait) {
      // A caller that hangs up hands the answer over to the callback URL, if it gave one.
      request.closed.addEventListener(
        'abort',
        () => {
          options.pendingRuns.release(runId);
          options.sharedRuns?.released(runId);
        },
        { once: true },
      );
    }
    const response: WaitedResponse = wait ? await waitForOutcome(runId, true) : { status: 202, body: { runId } };
    if (idempotencyKey !== undefined) {
      const stored = { status: response.status, body: response.body };
      // A failed turn is answered even when its answer cannot be stored (the store may be what failed).
      if (response.status === 200 || response.status === 202) await options.idempotency.answer(idempotencyKey, stored);
      else await options.idempotency.answer(idempotencyKey, stored).catch((error: unknown) => options.logger.warn({ err: error, runId }, 'the answer of a failed turn was not stored for replays'));
      // Replays now read the stored answer: the run's outcome need not stay in memory.
      if (response.status !== 202) options.pendingRuns.forget(runId);
    }
    return answer(response);
  }

  /** A replay of a running request: wait with it, or, when its answer was just stored and freed, read that. */
  async function waitForReplay(idempotencyKey: string, rawBody: string, runId: string): Promise<WaitedResponse> {
    if (options.pendingRuns.get(runId)) return waitForOutcome(runId, false);
    const again = await options.idempotency.claim({ key: idempotencyKey, rawBody, runId, now: options.now() });
    return again.kind === 'answered' ? again.response : { status: 202, body: { runId } };
  }

  async function waitForOutcome(runId: string, isFirst: boolean): Promise<WaitedResponse> {
    const outcome = await options.pendingRuns.wait(runId, options.waitTimeoutMs);
    if (outcome === 'timeout') {
      if (isFirst) {
        options.pendingRuns.release(runId);
        options.sharedRuns?.released(runId);
      }
      return { status: 202, body: { runId } };
    }
    switch (outcome.kind) {
      case 'reply':
        if (outcome.failure) return failureResponse({ runId, failure: outcome.failure, reply: outcome.text, now: options.now() });
        return { status: 200, body: outcome.messages.length > 0 ? { runId, reply: outcome.text, messages: outcome.messages } : { runId, reply: outcome.text } };
      case 'suspended':
        return { status: 202, body: { runId, status: outcome.waitingFor === 'approval' ? 'waiting-for-approval' : 'waiting-for-answer' } };
      case 'finished':
        return { status: 200, body: { runId, status: outcome.status, reply: outcome.text } };
    }
  }
}

function answer(response: WaitedResponse, headers: Readonly<Record<string, string>> = {}): HttpResponse {
  const retryAfter: Record<string, string> = response.retryAfterSeconds === undefined ? {} : { 'Retry-After': String(response.retryAfterSeconds) };
  return { status: response.status, body: response.body, headers: { ...headers, ...retryAfter } };
}

/** A JSON error answer, with headers to send (Retry-After). */
function refuse(status: number, code: GatewayErrorCode, message: string, fields?: readonly FieldIssue[], headers?: Readonly<Record<string, string>>): HttpResponse {
  return { status, body: errorBody(code, message, fields), ...(headers ? { headers } : {}) };
}
