import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MessageBus } from '../bus/message-bus.js';
import { EchoError } from '../errors/echo-error.js';
import type { ChannelStatus } from '../events/channel.js';
import type { ParkedSummary } from '../journal/create-turn-parking.js';
import type { Logger } from '../logging/create-logger.js';
import type { ToolServerStatus } from '../registry/dynamic-tool-source.js';
import type { Store } from '../store/key-value-namespace.js';
import type { Telemetry } from '../telemetry/telemetry.js';
import type { GatewayAppOptions } from './create-gateway-app.js';
import { createDeferredRequestHandler } from './deferred-request-handler.js';
import { createGatewayMetrics } from './gateway-metrics.js';
import { buildHealthReport, type HealthReport, type InstanceHealth } from './health-report.js';
import type { GatewayRoutes, HttpRoute } from './http-route.js';

/** What the gateway is built from. */
export type GatewayOptions = {
  readonly host: string;
  /** 0 picks a free port (tests); read it back with `address()`. */
  readonly port: number;
  /** When set, /metrics and the detailed /healthz need `Authorization: Bearer <token>`. */
  readonly metricsToken?: string;
  readonly store: Store;
  readonly bus: Pick<MessageBus, 'stats'>;
  readonly telemetry: Telemetry;
  readonly logger: Logger;
  /** Every channel's status, read when /healthz is asked. */
  readonly statusOfChannels: () => Readonly<Record<string, ChannelStatus>>;
  /** This instance's id, mode and the roles it leads now, read when asked. */
  readonly instance: () => Omit<InstanceHealth, 'queueDepth'>;
  /** MCP servers' states, when any is configured. */
  readonly statusOfToolServers?: () => Readonly<Record<string, ToolServerStatus>>;
  /** Turns set aside after repeated interruptions (a store read; left out of the report when it fails). */
  readonly statusOfParkedTurns?: () => Promise<ParkedSummary>;
  readonly now?: () => Date;
};

/** The HTTP gateway: core infrastructure in server mode, with or without any channel that serves HTTP. */
export type Gateway = GatewayRoutes & {
  /** Listens; a taken port is fatal (`gateway-listen-failed`) only when a channel mounted a route, else it runs degraded. */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Where it listens, once started. */
  address(): { readonly host: string; readonly port: number } | undefined;
  status(): ChannelStatus;
  /** The routes the channels mounted, in the order they did. */
  routes(): readonly HttpRoute[];
  /** The report GET /healthz answers (with the token), for the web console's health page. */
  health(): Promise<HealthReport>;
};

/** Creates the gateway: koa on host:port serving /healthz, /metrics and every route a channel mounts. */
export function createGateway(options: GatewayOptions): Gateway {
  const now = options.now ?? (() => new Date());
  const mounted: HttpRoute[] = [];
  let server: Server | undefined;
  let bound: { host: string; port: number } | undefined;
  let state: ChannelStatus = { state: 'stopped' };
  let disposeMetrics: (() => void) | undefined;
  let startedAt = now();
  const health = async (): Promise<HealthReport> => {
    const store = await options.store.check();
    const parked = store.state === 'ok' ? await options.statusOfParkedTurns?.().catch(() => undefined) : undefined;
    const bus = options.bus.stats();
    return buildHealthReport({ channels: options.statusOfChannels(), mcp: options.statusOfToolServers?.(), bus, store, parked, instance: { ...options.instance(), queueDepth: bus.queued }, startedAt, now: now() });
  };

  return {
    mount(route) {
      if (mounted.some((existing) => existing.path === route.path)) {
        throw new EchoError('gateway-route-duplicate', `Two routes want ${route.path} on the gateway; each path is served by one channel.`);
      }
      mounted.push(route);
    },
    routes: () => mounted,
    async start() {
      state = { state: 'starting' };
      const metrics = createGatewayMetrics({ telemetry: options.telemetry, bus: options.bus, store: options.store });
      disposeMetrics = metrics.dispose;
      startedAt = now();
      const appOptions: GatewayAppOptions = { logger: options.logger, metricsToken: options.metricsToken, metrics, routes: mounted, health };
      // koa, its router and their dependencies load once the server listens (before the first request, or with it).
      const handler = createDeferredRequestHandler({
        build: async () => (await import('./create-gateway-app.js')).createGatewayApp(appOptions).callback(),
        onFailure: (error) => options.logger.error({ err: error }, 'the HTTP gateway could not load its request handler'),
      });
      const listening = createServer(handler.handle);
      try {
        await listen(listening, options.host, options.port);
      } catch (error) {
        disposeMetrics();
        disposeMetrics = undefined;
        const reason = `cannot listen on ${options.host}:${options.port}: ${error instanceof Error ? error.message : String(error)}`;
        // Only health and metrics would be lost: run on without them. Routes a channel mounted are the gateway's job: stop.
        if (mounted.length > 0) throw new EchoError('gateway-listen-failed', `The HTTP gateway ${reason}.`, { cause: error });
        options.logger.error({ err: error }, `HTTP gateway ${reason}`);
        state = { state: 'degraded', detail: reason };
        return;
      }
      server = listening;
      const address = listening.address() as AddressInfo;
      bound = { host: options.host, port: address.port };
      state = { state: 'running', detail: describeGateway({ host: options.host, port: address.port, routes: mounted }) };
      void handler.load().catch(() => undefined);
    },
    async stop() {
      disposeMetrics?.();
      disposeMetrics = undefined;
      const closing = server;
      server = undefined;
      bound = undefined;
      state = { state: 'stopped' };
      if (closing) await close(closing);
    },
    address: () => bound,
    status: () => state,
    health,
  };
}

/** The start-up detail: where it listens and what the channels mounted. */
export function describeGateway(input: { readonly host: string; readonly port: number; readonly routes: readonly HttpRoute[] }): string {
  return [`${input.host}:${input.port}`, '/healthz', '/metrics', ...input.routes.map((route) => `${route.method} ${route.path}`)].join(', ');
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
    // Turns were drained before the gateway stops; whatever is still open (idle keep-alive, a late waiter) is cut.
    server.closeAllConnections();
  });
}
