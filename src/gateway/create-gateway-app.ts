import { EchoError } from '../errors/echo-error.js';
import { createHash, timingSafeEqual } from 'node:crypto';
import { Router } from '@koa/router';
import Koa, { type Context } from 'koa';
import type { Logger } from '../logging/create-logger.js';
import { errorBody, respondWithError } from './error-response.js';
import type { GatewayMetrics } from './gateway-metrics.js';
import type { HealthReport } from './health-report.js';
import type { HttpRequest, HttpRoute } from './http-route.js';
import { createFormBodyReader } from './read-form-body.js';
import { createJsonBodyReader, defaultBodyLimitBytes } from './read-json-body.js';

/** The parts the HTTP gateway serves. */
export type GatewayAppOptions = {
  readonly logger: Logger;
  readonly metrics: GatewayMetrics;
  readonly health: () => Promise<HealthReport>;
  /** When set, /metrics and the detailed /healthz answer only to `Authorization: Bearer <token>`. */
  readonly metricsToken?: string;
  /** Routes the channels registered (the webhook channel's POST /v1/messages, Telegram's webhook). */
  readonly routes: readonly HttpRoute[];
};

/**
 * Builds the koa app: /healthz, /metrics and the channels' routes; every error is JSON and no error stops the
 * server. With a metrics token, /metrics needs it and /healthz without it says only `ok`.
 */
export function createGatewayApp(options: GatewayAppOptions): Koa {
  const app = new Koa();
  const router = new Router();
  // Errors are answered and logged by the guard below; koa's own stderr printing stays off.
  app.silent = true;

  app.use(async (context, next) => {
    try {
      await next();
      if (context.status === 404 && context.body === undefined) respondWithError(context, 404, 'not-found', `Nothing is served at ${context.method} ${context.path}.`);
      if (context.status === 405 && (context.body === undefined || typeof context.body === 'string')) {
        respondWithError(context, 405, 'method-not-allowed', `${context.method} is not allowed on ${context.path}.`);
      }
    } catch (error) {
      if (error instanceof EchoError && error.code.startsWith('store-')) {
        // The store failed or timed out (replay records, idempotency keys): nothing was accepted, so a retry is safe.
        options.logger.warn({ code: error.code, path: context.path }, error.message);
        context.status = 503;
        context.body = errorBody('store-unavailable', "The agent's storage is not answering: nothing was run; retry later.");
        return;
      }
      options.logger.error({ err: error, path: context.path, method: context.method }, 'gateway request failed');
      context.status = 500;
      context.body = errorBody('internal', 'The server failed to handle the request.');
    } finally {
      options.metrics.countRequest(typeof context.state.route === 'string' ? context.state.route : 'unmatched', context.status);
    }
  });

  const named = (route: string, handler: (context: Context) => Promise<void> | void) => async (context: Context) => {
    context.state.route = route;
    await handler(context);
  };

  const authorized = (context: Context): boolean => options.metricsToken === undefined || bearerMatches(context.get('authorization'), options.metricsToken);
  router.get(
    '/healthz',
    named('/healthz', async (context) => {
      const report = await options.health();
      // Without the token: whether it is healthy, nothing about channels, accounts or the store's errors.
      context.body = authorized(context) ? report : { status: report.status };
    }),
  );
  router.get(
    '/metrics',
    named('/metrics', async (context) => {
      if (!authorized(context)) {
        context.set('WWW-Authenticate', 'Bearer');
        respondWithError(context, 401, 'unauthorized', 'Send Authorization: Bearer <GATEWAY_METRICS_TOKEN>.');
        return;
      }
      context.type = options.metrics.contentType;
      context.body = await options.metrics.text();
    }),
  );
  // Mounted paths come from config (Telegram's webhook URL): matched literally, never read as router patterns.
  const mounted = new Map(
    options.routes.map((route) => {
      const limitBytes = route.bodyLimitBytes ?? defaultBodyLimitBytes;
      return [route.path, { route, readJson: createJsonBodyReader({ limitBytes }), readForm: createFormBodyReader({ limitBytes }) }] as const;
    }),
  );
  // Longest prefix first: a route below another (`/console/act/` under `/console/`) answers its own paths.
  const prefixed = [...mounted.entries()].filter(([, entry]) => entry.route.matchPrefix === true).sort(([left], [right]) => right.length - left.length);
  app.use(async (context, next) => {
    const exact = mounted.get(context.path);
    const entry = exact !== undefined && exact.route.matchPrefix !== true ? exact : prefixed.find(([path]) => context.path.startsWith(path) && context.path.length > path.length)?.[1];
    if (entry === undefined) return next();
    const { route } = entry;
    context.state.route = route.path;
    if (context.method !== route.method) {
      context.set('Allow', route.method);
      respondWithError(context, 405, 'method-not-allowed', `${context.method} is not allowed on ${context.path}.`);
      return;
    }
    const closed = new AbortController();
    // The caller hung up before the answer was written (a `?wait=true` caller giving up).
    context.res.once('close', () => {
      if (!context.res.writableFinished) closed.abort();
    });
    const request: HttpRequest = {
      method: context.method,
      path: context.path,
      headers: flattenHeaders(context.headers),
      query: flattenQuery(context.query),
      readJson: () => entry.readJson(context),
      readForm: () => entry.readForm(context),
      closed: closed.signal,
    };
    const response = await route.handle(request);
    for (const [name, value] of Object.entries(response.headers ?? {})) context.set(name, value);
    context.status = response.status;
    context.body = response.body ?? '';
  });
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}

/** Compares `Bearer <token>` in constant time (over hashes, so lengths leak nothing either). */
function bearerMatches(header: string, token: string): boolean {
  const given = /^Bearer (.+)$/i.exec(header)?.[1] ?? '';
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return given !== '' && timingSafeEqual(digest(given), digest(token));
}

function flattenQuery(query: Context['query']): Record<string, string | undefined> {
  const flat: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(query)) flat[name] = Array.isArray(value) ? value[0] : value;
  return flat;
}

function flattenHeaders(headers: Context['headers']): Record<string, string | undefined> {
  const flat: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(headers)) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  return flat;
}
