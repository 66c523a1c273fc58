import { hostname, userInfo } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import type { ApprovalSurface, AppMode, ChannelAdapter, ChannelTraits } from '../channel/channel-adapter.js';
import type { ChannelContext, WiredChannel } from '../channel/channel-context.js';
import type { Config } from '../config/config-schema.js';
import type { Channel } from '../events/channel.js';
import type { GatewayRoutes } from '../gateway/http-route.js';
import type { Messages } from '../i18n/messages.js';
import type { Logger } from '../logging/create-logger.js';
import { assertWiredAsNamed } from './check-channel-names.js';
import type { Lifecycle } from './create-lifecycle.js';
import type { RoutingOutbox } from './create-outbox.js';
import type { Infrastructure } from './open-infrastructure.js';
import type { WiredScheduler } from './wire-scheduler.js';

/** The running channels by name, and the approval surfaces among them: filled once every channel is wired. */
export type ChannelTable = {
  readonly channels: Map<string, Channel>;
  /** Cards can be decided only in channels that are running: known once every channel is wired. */
  surfaces(): ReadonlyMap<string, ApprovalSurface>;
};

/** The channels as wired: each one's start-up line source, and when the terminal's input ends (chat mode). */
export type WiredChannels = { readonly wired: readonly WiredChannel[]; readonly terminalEnded?: Promise<void> };

/** An empty table, read by the parts built before the channels (health, approval routing, media). */
export function createChannelTable(): ChannelTable & { settle(traits: ReadonlyMap<string, ChannelTraits>): void } {
  const channels = new Map<string, Channel>();
  let surfaces: ReadonlyMap<string, ApprovalSurface> = new Map();
  return {
    channels,
    surfaces: () => surfaces,
    settle(traits) {
      surfaces = new Map([...traits].flatMap(([name, declared]) => (declared.approvals && channels.has(name) ? [[name, declared.approvals] as const] : [])));
    },
  };
}

/** The shared context every channel's wiring gets (its own name added per channel, the runtime's TurnControl once built). */
export function createChannelContext(input: {
  readonly config: Config;
  readonly logger: Logger;
  readonly mode: AppMode;
  readonly infrastructure: Infrastructure;
  readonly messagesFor: (channel: string) => Messages;
  readonly gateway: GatewayRoutes;
  readonly terminal?: { readonly input: Readable; readonly output: Writable };
}): Omit<ChannelContext, 'channelName' | 'turns'> {
  const { infrastructure } = input;
  return {
    config: input.config,
    logger: input.logger,
    store: infrastructure.store,
    outbox: infrastructure.outbox,
    bus: infrastructure.events.bus,
    telemetry: infrastructure.telemetry,
    instance: { id: infrastructure.instanceId, mode: infrastructure.events.mode, leadership: infrastructure.events.leadership, handOff: infrastructure.events.handOff },
    messagesFor: input.messagesFor,
    gateway: input.gateway,
    terminal: input.mode === 'chat' ? { ...(input.terminal ?? { input: process.stdin, output: process.stdout }), userName: userName() } : undefined,
  };
}

/**
 * Wires each adapter with its own name (refusing a channel that reports another), then the scheduler last: a catch-up
 * run at start-up must find every channel it may deliver to already started. Channels that are on join the table and
 * the outbox, and are stopped through the lifecycle (in reverse order).
 */
export async function wireChannels(input: {
  readonly adapters: readonly ChannelAdapter[];
  readonly traits: ReadonlyMap<string, ChannelTraits>;
  readonly context: Omit<ChannelContext, 'channelName'>;
  readonly outbox: RoutingOutbox;
  readonly scheduler: WiredScheduler;
  readonly table: ReturnType<typeof createChannelTable>;
  readonly lifecycle: Lifecycle;
}): Promise<WiredChannels> {
  const wired: WiredChannel[] = [];
  for (const adapter of input.adapters) {
    // The core hands each channel its adapter's name; a channel that reports another would silently get no replies.
    const item = await adapter.wire({ ...input.context, channelName: adapter.name });
    assertWiredAsNamed(adapter, item);
    wired.push(item);
  }
  wired.push(input.scheduler.wired);
  for (const item of wired) {
    if (!item.on) continue;
    const { channel } = item;
    input.table.channels.set(channel.name, channel);
    input.outbox.register(channel);
    input.lifecycle.defer(`the ${channel.name} channel`, () =>
      channel.stop().catch((error: unknown) => input.context.logger.warn({ err: error, channel: channel.name }, 'channel did not stop cleanly')),
    );
  }
  input.table.settle(input.traits);
  return { wired, terminalEnded: wired.flatMap((item) => (item.on && item.finished ? [item.finished] : []))[0] };
}

function userName(): string {
  try {
    return userInfo().username;
  } catch {
    return hostname();
  }
}
