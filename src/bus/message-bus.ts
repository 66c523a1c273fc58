import type { EmitResult } from '../events/channel.js';
import type { InboundEvent } from '../events/inbound-event.js';

/** Handles one inbound event; the bus runs at most one per session at a time. */
export type EventHandler = (event: InboundEvent) => Promise<void>;

/** How full the bus is, for `/metrics` and `/healthz`. */
export type BusStats = { readonly queued: number; readonly active: number; readonly sessions: number };

/** Carries inbound events to the agent: FIFO per session, sessions in parallel, bounded. */
export interface MessageBus {
  /** Queues an event (durably, for a shared queue), or refuses it when the bus is full, closed or unreachable. */
  publish(event: InboundEvent): Promise<EmitResult>;
  /** Sets the one handler events are delivered to. */
  subscribe(handler: EventHandler): void;
  /** Stops intake and waits up to `timeoutMs` for queued and running events to finish. */
  drain(timeoutMs: number): Promise<{ readonly drained: boolean; readonly abandoned: number }>;
  stats(): BusStats;
  /** Resolves when nothing is queued or running (intake stays open). */
  idle(): Promise<void>;
}
