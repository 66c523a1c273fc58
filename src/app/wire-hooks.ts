import type { Config } from '../config/config-schema.js';
import type { Channel } from '../events/channel.js';
import type { Gateway } from '../gateway/create-gateway.js';
import type { Logger } from '../logging/create-logger.js';
import type { Lifecycle } from './create-lifecycle.js';
import type { Infrastructure } from './open-infrastructure.js';

/**
 * Mounts the named hooks (`hooks:`) on the gateway in server mode, after the channels are wired (a hook names the
 * channel it delivers to); their events go through the same durable intake as every channel's. Core ingress like the
 * scheduler, never a channel. Returns the start-up line (none without hooks).
 */
export async function wireHooks(input: {
  readonly config: Config;
  readonly logger: Logger;
  readonly now: () => Date;
  readonly infrastructure: Infrastructure;
  readonly gateway: Gateway;
  readonly channels: ReadonlyMap<string, Channel>;
  readonly lifecycle: Lifecycle;
}): Promise<string | undefined> {
  const { infrastructure } = input;
  if (Object.keys(input.config.hooks).length === 0) return undefined;
  // The senders' verification libraries load only when a hook is configured.
  const { mountHooks } = await import('../hooks/create-hooks.js');
  const mounted = mountHooks({
    config: input.config,
    store: infrastructure.store,
    telemetry: infrastructure.telemetry,
    gateway: input.gateway,
    accept: (event) => infrastructure.events.intake.accept(event),
    logger: input.logger,
    now: input.now,
    runningChannels: new Set(input.channels.keys()),
  });
  input.lifecycle.defer('the hooks', async () => mounted.dispose());
  return mounted.line;
}
