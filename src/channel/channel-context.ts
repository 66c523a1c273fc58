import type { Readable, Writable } from 'node:stream';
import type { MessageBus } from '../bus/message-bus.js';
import type { HandOff } from '../cluster/hand-off.js';
import type { LeadershipPort } from '../cluster/leadership.js';
import type { Config } from '../config/config-schema.js';
import type { Channel, ChannelStatus } from '../events/channel.js';
import type { HttpRoute } from '../events/http-route.js';
import type { Outbox } from '../events/outbox.js';
import type { Messages } from '../i18n/messages.js';
import type { ParkedSummary } from '../journal/create-turn-parking.js';
import type { Logger } from '../logging/create-logger.js';
import type { ToolServerStatus } from '../registry/dynamic-tool-source.js';
import type { Store } from '../store/key-value-namespace.js';
import type { Telemetry } from '../telemetry/telemetry.js';

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
  /** Each server that brings tools at run time (MCP), read when asked (health endpoints). */
  readonly statusOfToolServers: () => Readonly<Record<string, ToolServerStatus>>;
  /** How many turns are parked and the newest, read when asked (health endpoints). */
  readonly statusOfParkedTurns: () => Promise<ParkedSummary>;
  /** Every channel's status, read when asked (health endpoints). */
  readonly statusOfChannels: () => Readonly<Record<string, ChannelStatus>>;
  /** Routes the wired channels serve over the HTTP gateway (Telegram's webhook mode): read at start, after every channel is wired. */
  readonly httpRoutes: () => readonly HttpRoute[];
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
      /** Routes it serves over the HTTP gateway. */
      readonly routes?: readonly HttpRoute[];
      /** Resolves when the channel has nothing more to bring (the terminal's input ended). */
      readonly finished?: Promise<void>;
    }
  | { readonly on: false; readonly name: string; readonly reason: string };
