import type { ChannelStatus, Channel } from '../events/channel.js';
import { EchoError } from '../errors/echo-error.js';
import type { Gateway } from '../gateway/create-gateway.js';
import type { GatewayRoutes } from '../gateway/http-route.js';
import type { Config } from '../config/config-schema.js';
import type { Logger } from '../logging/create-logger.js';
import type { ToolSet } from './build-tool-set.js';
import type { Lifecycle } from './create-lifecycle.js';
import type { Infrastructure } from './open-infrastructure.js';

/** Where channels mount routes when no gateway runs (chat mode): mounting is a bug in the build. */
export const noGateway: GatewayRoutes = {
  mount: (route) => {
    throw new EchoError('gateway-not-running', `${route.method} ${route.path} cannot be served: the HTTP gateway runs only in server mode.`);
  },
};

/**
 * The HTTP gateway, core infrastructure of server mode: /healthz and /metrics, and the routes channels mount while
 * they are wired. Loaded only in server mode; it stops after every channel (it was opened before them).
 */
export async function openGateway(input: {
  readonly config: Config;
  readonly logger: Logger;
  readonly infrastructure: Infrastructure;
  readonly tools: ToolSet;
  readonly channels: ReadonlyMap<string, Channel>;
  readonly lifecycle: Lifecycle;
}): Promise<Gateway> {
  const { config, infrastructure } = input;
  const { createGateway } = await import('../gateway/create-gateway.js');
  const gateway = createGateway({
    host: config.gateway.host,
    port: config.gateway.port,
    metricsToken: config.gateway.metricsToken,
    store: infrastructure.store,
    bus: infrastructure.events.bus,
    telemetry: infrastructure.telemetry,
    logger: input.logger.child({ component: 'gateway' }),
    statusOfChannels: () => Object.fromEntries([...input.channels.entries()].map(([name, channel]) => [name, channel.status()])) as Record<string, ChannelStatus>,
    instance: () => ({ id: infrastructure.instanceId, mode: infrastructure.events.mode, leads: infrastructure.events.leadership.held() }),
    statusOfToolServers: () => input.tools.mcp?.servers() ?? {},
    statusOfParkedTurns: () => infrastructure.parking.summary(),
  });
  input.lifecycle.defer('the HTTP gateway', () => gateway.stop());
  return gateway;
}
