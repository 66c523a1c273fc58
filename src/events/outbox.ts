import type { Delivery, OutboundEvent } from './outbound-event.js';

/** Sends outbound events to the channel named in their target. */
export interface Outbox {
  send(event: OutboundEvent): Promise<Delivery>;
}

/** What happened to the turn an inbound event started: channels that wait on a turn (webhook, cron) listen for it. */
export type TurnFinished = {
  /** The inbound event that started or resumed the turn. */
  readonly causationId: string;
  readonly sessionKey: string;
  /** `cancelled`: whoever started it cancelled it (TurnControl); nothing more was sent. */
  readonly status: 'completed' | 'suspended' | 'failed' | 'refused' | 'cancelled';
  readonly text?: string;
  /** The delivery of the final reply, when one was sent. */
  readonly delivery?: Delivery;
  /** Set when a budget stopped the turn before the model was asked (a scheduled run records it as skipped). */
  readonly reason?: 'budget';
};
