import type { InboundEvent } from './inbound-event.js';
import type { Delivery, OutboundEvent } from './outbound-event.js';

/** What the bus said to an emitted event: queued, or refused with a reason the channel can show. */
export type EmitResult = { readonly accepted: true } | { readonly accepted: false; readonly reason: 'busy' | 'closed' };

/** How a channel hands inbound events to the runtime. */
export type Emit = (event: InboundEvent) => Promise<EmitResult>;

/** A channel's health, for start-up lines and `/healthz`. */
export type ChannelStatus = {
  readonly state: 'starting' | 'running' | 'degraded' | 'stopped';
  readonly detail?: string;
};

/** A chat surface or entry point. The SDK stays inside it; translation to and from events is pure. */
export interface Channel {
  readonly name: string;
  start(emit: Emit): Promise<void>;
  /** Delivers one outbound event and says honestly whether it arrived. */
  send(event: OutboundEvent): Promise<Delivery>;
  stop(): Promise<void>;
  status(): ChannelStatus;
}
