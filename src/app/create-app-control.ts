import { mcpOAuthCallbackPath } from './wire-mcp-oauth.js';
import type { AgentRuntime } from '../agent/create-agent-runtime.js';
import type { Config } from '../config/config-schema.js';
import type { Channel } from '../events/channel.js';
import type { Gateway } from '../gateway/create-gateway.js';
import type { Logger } from '../logging/create-logger.js';
import type { ToolSet } from './build-tool-set.js';
import type { Lifecycle } from './create-lifecycle.js';
import type { Infrastructure } from './open-infrastructure.js';
import type { MediaWiring } from './wire-media.js';

/** How a built app starts and stops. */
export type AppControl = {
  start(): Promise<void>;
  /** Stops intake, lets in-flight turns finish within `graceMs`, then closes everything in reverse order of opening. */
  stop(graceMs?: number): Promise<{ readonly drained: boolean }>;
};

/** The app's start (recovery first, then channels, gateway, MCP servers and the sweeps) and its stop (through the lifecycle). */
export function createAppControl(input: {
  readonly config: Config;
  readonly logger: Logger;
  readonly infrastructure: Infrastructure;
  readonly tools: ToolSet;
  readonly runtime: AgentRuntime;
  readonly media: MediaWiring;
  readonly channels: ReadonlyMap<string, Channel>;
  readonly gateway?: Gateway;
  readonly lifecycle: Lifecycle;
  /** Lets turns start once the MCP servers' first connection was tried. */
  readonly releaseTurns: () => void;
  readonly sweepEveryMs: number;
}): AppControl {
  const { config, logger, runtime, media, tools } = input;
  const { store, events } = input.infrastructure;
  let sweeper: NodeJS.Timeout | undefined;
  let purger: NodeJS.Timeout | undefined;
  let firstPurge: Promise<unknown> = Promise.resolve();
  return {
    async start() {
      // What a crash interrupted runs first, in the order it was accepted, before any new message.
      await events.intake.redrive();
      await runtime.resumeSettled();
      // Approvals that expired while the process was down are settled right away, then every interval.
      await runtime.sweepExpired();
      media.start();
      try {
        for (const channel of input.channels.values()) await channel.start((event) => events.intake.accept(event));
        await input.gateway?.start();
        // The port is known only now (port 0 picks one): OAuth links send the person back to this gateway.
        const address = input.gateway?.address();
        if (address) tools.mcp?.useOAuthCallbackUrl(`http://${address.host}:${address.port}${mcpOAuthCallbackPath}`);
      } finally {
        // Expired rows already read as absent: their first purge need not hold the ready line back.
        firstPurge = store.purgeExpired().catch((error: unknown) => logger.warn({ err: error }, 'purge of expired rows failed'));
        // Once the channels run, the servers start side by side (loading the MCP client then, off the start-up path).
        void (tools.mcp?.start() ?? Promise.resolve()).catch((error: unknown) => logger.error({ err: error }, 'MCP servers did not start')).finally(input.releaseTurns);
      }
      const sweep = async () => {
        await runtime.sweepExpired();
        await runtime.resumeSettled();
        await events.intake.redrive();
      };
      sweeper = setInterval(() => void sweep().catch((error: unknown) => logger.error({ err: error }, 'sweep failed')), input.sweepEveryMs);
      sweeper.unref();
      purger = setInterval(
        () => void store.purgeExpired().then((purged) => logger.debug({ purged }, 'expired rows purged'), (error: unknown) => logger.warn({ err: error }, 'purge of expired rows failed')),
        config.storage.purgeEveryMinutes * 60_000,
      );
      purger.unref();
    },
    async stop(graceMs = 10_000) {
      clearInterval(sweeper);
      clearInterval(purger);
      media.stop();
      // Tools stop with the process: running commands are killed first, so their turns end now, not at their timeout.
      const killed = tools.processGroups.killAll();
      if (killed > 0) logger.info({ killed }, 'killed running tool processes');
      const result = await events.bus.drain(graceMs);
      await firstPurge;
      // Channels (the scheduler first), the gateway, the tools, the bus, budgets, the audit log, the store.
      await input.lifecycle.close();
      return { drained: result.drained };
    },
  };
}
