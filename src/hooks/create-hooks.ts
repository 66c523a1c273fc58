import type { Config } from '../config/config-schema.js';
import type { EmitResult } from '../events/channel.js';
import type { InboundEvent } from '../events/inbound-event.js';
import type { GatewayRoutes } from '../gateway/http-route.js';
import type { Logger } from '../logging/create-logger.js';
import type { Store } from '../store/key-value-namespace.js';
import type { Telemetry } from '../telemetry/telemetry.js';
import { createHookRoute } from './create-hook-route.js';
import { createHookDeliveries } from './hook-deliveries.js';
import { hooksSourceName } from './hooks-source-name.js';


/** Turns followed to their end at most (a turn not seen ending in this process is simply not marked run). */
const maxFollowedTurns = 10_000;

/** The hooks as mounted: one start-up line, and a way to stop following turns. */
export type MountedHooks = { readonly line: string; dispose(): void };

/**
 * Mounts `POST /hooks/<name>` for every configured hook on the gateway, counts each request's outcome for /metrics,
 * and marks each accepted delivery run and delivered when its turn ends (for `npm run hooks`).
 */
export function mountHooks(input: {
  readonly config: Config;
  readonly store: Store;
  readonly telemetry: Telemetry;
  readonly gateway: GatewayRoutes;
  readonly accept: (event: InboundEvent) => Promise<EmitResult>;
  readonly logger: Logger;
  readonly now: () => Date;
  /** The channels that run: a hook delivering to another is mounted, and said to deliver nowhere. */
  readonly runningChannels: ReadonlySet<string>;
}): MountedHooks {
  const deliveries = createHookDeliveries(input.store);
  const hooks = Object.entries(input.config.hooks);
  if (hooks.length === 0) return { line: `${hooksSourceName}: off (none configured under hooks:)`, dispose: () => {} };
  const followed = new Map<string, string>();
  const accept = async (event: InboundEvent): Promise<EmitResult> => {
    const result = await input.accept(event);
    if (result.accepted && event.type === 'hook-received') {
      if (followed.size >= maxFollowedTurns) followed.delete(followed.keys().next().value ?? '');
      followed.set(event.id, event.hookName);
    }
    return result;
  };
  for (const [name, hook] of hooks) {
    if (!input.runningChannels.has(hook.deliverTo.channel)) input.logger.warn({ hook: name, channel: hook.deliverTo.channel }, 'hook delivers to a channel that is not running: its answers go nowhere');
    input.gateway.mount(
      createHookRoute({
        name,
        hook,
        accept,
        deliveries,
        logger: input.logger.child({ component: 'hooks' }),
        now: input.now,
        counted: (outcome) => input.telemetry.emitHookDelivery({ hook: name, outcome }),
      }),
    );
  }
  const unsubscribe = input.telemetry.onTurnFinished((report) => {
    const hookName = followed.get(report.causationId);
    if (hookName === undefined) return;
    // A turn waiting on a card ends later, under the same causation id.
    if (report.status !== 'suspended') followed.delete(report.causationId);
    void deliveries
      .finish(hookName, report.causationId, { run: report.status, ...(report.delivery === undefined ? {} : { delivered: report.delivery.ok }) })
      .catch((error: unknown) => input.logger.warn({ err: error, hook: hookName }, 'hook delivery outcome not recorded'));
  });
  const described = hooks.map(([name, hook]) => `${name} (${hook.verify} → ${hook.deliverTo.channel})`).join(', ');
  return { line: `${hooksSourceName}: on (${described})`, dispose: unsubscribe };
}
