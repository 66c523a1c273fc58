import { PassThrough } from 'node:stream';
import { formatSSEErrorEvent, formatSSEEvent, SSE_HEADERS } from '@a2a-js/sdk';
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import { z } from 'zod';
import { type A2ARequestHandler, JsonRpcTransportHandler, ServerCallContext, validateVersion } from '@a2a-js/sdk/server';
import type { HttpRequest, HttpResponse, HttpRoute } from '../../src/gateway/http-route.js';
import type { Logger } from '../../src/logging/create-logger.js';
import type { RateLimiter } from '../../src/mcp-server/create-rate-limiter.js';
import type { A2aKey } from './a2a-config.js';
import { findBearerKey } from '../../src/gateway/find-bearer-key.js';
import { a2aRpcPath } from './agent-card.js';
import { rpcError, rpcErrorCodes } from './rpc-errors.js';
import { trustFieldsIn } from './trust-fields.js';

/** What the JSON-RPC route is built from. */
export type RpcRouteOptions = {
  readonly keys: readonly A2aKey[];
  readonly requestHandler: A2ARequestHandler;
  readonly rateLimiter: RateLimiter;
  readonly bodyLimitBytes: number;
  readonly logger: Logger;
};

/** A JSON-RPC 2.0 request as far as this route reads it; the SDK checks the method's params. */
const rpcEnvelope = z.looseObject({
  jsonrpc: z.literal('2.0'),
  id: z.union([z.string().max(200), z.number(), z.null()]).optional(),
  method: z.string().min(1).max(100),
  params: z.record(z.string(), z.unknown()).optional(),
});

/** How often a stream that waits says it is alive (a comment line proxies and clients ignore). */
const keepAliveMs = 15_000;

/** The protocol version a request without `A2A-Version` speaks (the SDK's rule). */
const legacyVersion = '0.3';

/**
 * POST /a2a, in order: bearer key (401) → the key's rate limit (429) → a JSON body within the limit (413, 415, 400) →
 * a JSON-RPC 2.0 envelope (400, checked with zod) → no trust field in the metadata (400: who the caller is and what it may do come from its key) → the SDK's JSON-RPC
 * handler: v1.0 methods (SendMessage, SendStreamingMessage, GetTask, CancelTask) with `A2A-Version: 1.0`, the v0.3 ones
 * (message/send, message/stream, tasks/get, tasks/cancel) without it. Streams are answered as server-sent events.
 */
export function createRpcRoute(options: RpcRouteOptions): HttpRoute {
  const current = new JsonRpcTransportHandler(options.requestHandler);
  const legacy = new LegacyJsonRpcTransportHandler(options.requestHandler);
  return { method: 'POST', path: a2aRpcPath, bodyLimitBytes: options.bodyLimitBytes, handle };

  async function handle(request: HttpRequest): Promise<HttpResponse> {
    const checked = findBearerKey(request.headers.authorization, options.keys, (key) => key.secret);
    if (!checked.ok) {
      const message = checked.reason === 'missing' ? 'Send Authorization: Bearer <key> (the key the operator gave your agent).' : 'The key is not valid.';
      return rpcError(401, rpcErrorCodes.unauthorized, message, { 'WWW-Authenticate': 'Bearer' });
    }
    const key = checked.key;
    const rate = options.rateLimiter.take(key.name, key.callsPerMinute);
    if (!rate.allowed) return rpcError(429, rpcErrorCodes.rateLimited, `Too many requests for this key; retry in ${rate.retryAfterSeconds} s.`, { 'Retry-After': String(rate.retryAfterSeconds) });
    const read = await request.readJson();
    if (!read.ok) return rpcError(read.status, read.status === 413 ? rpcErrorCodes.invalidRequest : rpcErrorCodes.parse, read.message);
    const envelope = rpcEnvelope.safeParse(read.body);
    if (!envelope.success) {
      const issue = envelope.error.issues[0];
      const where = issue?.path.map(String).join('.') ?? '';
      return rpcError(400, rpcErrorCodes.invalidRequest, `Not a JSON-RPC 2.0 request: ${where === '' ? 'body' : where}: ${issue?.message ?? 'invalid'}.`, undefined, requestId(read.body));
    }
    const id = envelope.data.id ?? null;
    const trustFields = trustFieldsIn(read.body);
    if (trustFields.length > 0) {
      options.logger.warn({ key: key.name, fields: trustFields }, 'A2A request tried to set trust fields; refused');
      return rpcError(400, rpcErrorCodes.invalidParams, `Refused: ${trustFields.join(', ')} would set who you are or what you may do; the agent decides that from your key.`, undefined, id);
    }
    const requestedVersion = request.headers['a2a-version'] || undefined;
    const context = new ServerCallContext({ user: { isAuthenticated: true, userName: key.name }, ...(requestedVersion === undefined ? {} : { requestedVersion }) });
    const isLegacy = (requestedVersion ?? legacyVersion) === legacyVersion;
    const mapError = isLegacy ? LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError : JsonRpcTransportHandler.mapToJSONRPCError;
    let answer: Awaited<ReturnType<JsonRpcTransportHandler['handle']>>;
    try {
      validateVersion(context.requestedVersion, await options.requestHandler.getAgentCard(), 'JSONRPC');
      answer = await (isLegacy ? legacy : current).handle(read.body as Record<string, unknown>, context);
    } catch (error) {
      return { status: 200, body: { jsonrpc: '2.0', id, error: mapError(error) } };
    }
    if (!isAsyncIterable(answer)) return { status: 200, body: answer };
    return { status: 200, body: streamEvents(answer, { id, mapError, closed: request.closed, logger: options.logger }), headers: { ...SSE_HEADERS, 'X-Accel-Buffering': 'no' } };
  }
}

/** Writes a stream of JSON-RPC answers as server-sent events; an error mid-stream becomes an error event. */
function streamEvents(events: AsyncGenerator<unknown, void, undefined>, options: { readonly id: string | number | null; readonly mapError: (error: unknown) => unknown; readonly closed: AbortSignal; readonly logger: Logger }): PassThrough {
  const stream = new PassThrough();
  // koa destroys the body stream when the client leaves; later writes are dropped, not errors.
  stream.on('error', () => undefined);
  const write = (text: string) => {
    if (!stream.destroyed && !stream.writableEnded) stream.write(text);
  };
  options.closed.addEventListener('abort', () => void events.return(undefined).catch(() => undefined), { once: true });
  const keepAlive = setInterval(() => write(': waiting\n\n'), keepAliveMs);
  void (async () => {
    try {
      for await (const event of events) write(formatSSEEvent(event));
    } catch (error) {
      options.logger.warn({ err: error }, 'A2A stream failed');
      write(formatSSEErrorEvent({ jsonrpc: '2.0', id: options.id, error: options.mapError(error) }));
    } finally {
      clearInterval(keepAlive);
      stream.end();
    }
  })();
  return stream;
}

function requestId(body: unknown): string | number | null {
  const id = typeof body === 'object' && body !== null ? (body as { id?: unknown }).id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

function isAsyncIterable(value: unknown): value is AsyncGenerator<unknown, void, undefined> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}
