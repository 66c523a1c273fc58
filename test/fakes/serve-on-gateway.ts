import { createGateway, type Gateway } from '../../src/gateway/create-gateway.js';
import type { HttpRoute } from '../../src/gateway/http-route.js';
import { createLogger } from '../../src/logging/create-logger.js';
import type { Store } from '../../src/store/key-value-namespace.js';
import { createTelemetry, type Telemetry } from '../../src/telemetry/telemetry.js';

/** A real gateway on 127.0.0.1 serving the given routes (a channel tested without an app); started, with its base URL. */
export async function serveOnGateway(input: { readonly routes: readonly (HttpRoute | undefined)[]; readonly store: Store; readonly telemetry?: Telemetry; readonly port?: number }): Promise<{ readonly gateway: Gateway; readonly baseUrl: string }> {
  const gateway = createGateway({
    host: '127.0.0.1',
    port: input.port ?? 0,
    store: input.store,
    bus: { stats: () => ({ queued: 0, active: 0, sessions: 0 }) },
    telemetry: input.telemetry ?? createTelemetry(),
    logger: await createLogger({ level: 'silent', pretty: false }),
    statusOfChannels: () => ({}),
    instance: () => ({ id: 'test', mode: 'single' as const, leads: [] }),
  });
  for (const route of input.routes) if (route) gateway.mount(route);
  await gateway.start();
  const address = gateway.address();
  return { gateway, baseUrl: address ? `http://${address.host}:${address.port}` : '' };
}
