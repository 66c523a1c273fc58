import type { Readable, Writable } from 'node:stream';
import type { MessageBus } from '../bus/message-bus.js';
import type { HandOff } from '../cluster/hand-off.js';
import type { LeadershipPort } from '../cluster/leadership.js';
import type { Config } from '../config/config-schema.js';
import type { Channel } from '../events/channel.js';
import type { GatewayRoutes } from '../gateway/http-route.js';
import type { Outbox } from '../events/outbox.js';
import type { Messages } from '../i18n/messages.js';
import type { Logger } from '../logging/create-logger.js';
import type { Store } from '../store/key-value-namespace.js';
import type { Telemetry } from '../telemetry/telemetry.js';
import type { TurnControl } from '../events/turn-control.js';

/** What the composition root hands each channel's wiring. */
export type ChannelContext = {
  /**
   * The channel's name: its adapter's, handed over by the core. The channel reports it as `Channel.name` and puts it
   * on its envelopes and session keys; a channel folder writes its name once, in its adapter.
   */
  readonly channelName: string;
  readonly config: Config;
  readonly logger: Logger;
  readonly store: Store;
  readonly outbox: Outbox;
  readonly bus: MessageBus;
  readonly telemetry: Telemetry;
  /** This instance: its id, whether it shares PostgreSQL with others, and the leadership locks (one poller per bot, one login per account). */
  readonly instance: InstanceContext;
  /** The catalogue in the locale the named channel declared. */
  readonly messagesFor: (channel: string) => Messages;
  /**
   * The HTTP gateway (server mode): a channel that serves HTTP (the webhook channel's POST /v1/messages, Telegram's
   * webhook mode) mounts its routes while it is wired; the gateway serves them once it starts. In chat mode there is
   * no gateway and mounting throws `gateway-not-running`.
   */
  readonly gateway: GatewayRoutes;
  /** Stops the work a channel started (a task its caller cancelled): the running turn aborted, suspended turns closed. */
  readonly turns: TurnControl;
  /** The terminal, in `chat` mode. */
  readonly terminal?: { readonly input: Readable; readonly output: Writable; readonly userName: string };
};

/** This instance among others (cluster mode) or alone. */
export type InstanceContext = {
  readonly id: string;
  readonly mode: 'single' | 'cluster';
  readonly leadership: LeadershipPort;
  /** Work handed to the instance that holds a role (a WeChat send to the login holder). */
  readonly handOff: HandOff;
};

/** A channel the wiring decided to turn on, or off with the reason, for the start-up lines. */
export type WiredChannel =
  | {
      readonly on: true;
      readonly channel: Channel;
      readonly detail: string;
      /** Resolves when the channel has nothing more to bring (the terminal's input ended). */
      readonly finished?: Promise<void>;
    }
  | { readonly on: false; readonly name: string; readonly reason: string };
