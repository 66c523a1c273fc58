import type { InboundEvent, MediaReference } from './inbound-event.js';
import type { MediaDestination, MediaDownloadResult } from './media-download-result.js';
import type { Delivery, OutboundEvent } from './outbound-event.js';

/**
 * What the runtime said to an emitted event: recorded and queued, or refused with a reason the channel
 * can show. `unavailable`: the event could not be recorded durably (the store is failing); the channel
 * must not acknowledge it to the platform, so it comes again.
 */
export type EmitResult = { readonly accepted: true } | { readonly accepted: false; readonly reason: 'busy' | 'closed' | 'unavailable' };

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
  /** Streams the file of a media reference from one of its own events to `destination.path`; channels without media leave it out. */
  downloadMedia?(reference: MediaReference, destination: MediaDestination): Promise<MediaDownloadResult>;
}
