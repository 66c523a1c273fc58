import type { Store } from '../store/key-value-namespace.js';

/** How long a delivery id is remembered: a sender's redelivery within it runs nothing again (GitHub and Stripe retry for up to 3 days). */
export const deliveryIdTtlMs = 7 * 24 * 60 * 60_000;

/** Recent deliveries kept per hook for `npm run hooks`. */
export const recentDeliveriesKept = 20;
const recentTtlMs = 30 * 24 * 60 * 60_000;

/** The first answer to a delivery id: a redelivery gets it again and runs nothing. */
export type DeliveryClaim = { readonly eventId: string; readonly status: 202 | 204; readonly at: string };

/** One request to a hook, as `npm run hooks` shows it: received, verified, matched, run (and how), delivered. */
export type DeliverySummary = {
  readonly at: string;
  readonly deliveryId?: string;
  readonly status: number;
  readonly verified: boolean;
  readonly matched?: boolean;
  readonly duplicate?: boolean;
  readonly eventId?: string;
  /** How the turn ended: completed, suspended (a card waits), failed, refused. */
  readonly run?: string;
  readonly delivered?: boolean;
  /** Why it was refused or not run, in a few words. */
  readonly note?: string;
};

/** The hooks' durable records: delivery ids (namespace `hook-deliveries`) and each hook's recent requests (`hook-recent`). */
export type HookDeliveries = {
  /** Claims a delivery id for a new event, compare-and-set; answers the earlier claim when there is one. */
  claim(hookName: string, deliveryId: string, claim: DeliveryClaim): Promise<{ readonly first: true } | { readonly first: false; readonly earlier: DeliveryClaim }>;
  /** Forgets a claim whose event was not accepted, so the sender's retry runs it. */
  release(hookName: string, deliveryId: string, eventId: string): Promise<void>;
  /** Adds a request to the hook's recent list (the newest first, capped). */
  record(hookName: string, summary: DeliverySummary): Promise<void>;
  /** Sets how a recorded event's turn ended. */
  finish(hookName: string, eventId: string, outcome: { readonly run: string; readonly delivered?: boolean }): Promise<void>;
  /** A hook's recent requests, the newest first. */
  recent(hookName: string): Promise<readonly DeliverySummary[]>;
};

/** Creates the records over the store. */
export function createHookDeliveries(store: Store): HookDeliveries {
  const claims = store.namespace<DeliveryClaim>('hook-deliveries');
  const recent = store.namespace<DeliverySummary[]>('hook-recent');
  const claimKey = (hookName: string, deliveryId: string) => `${hookName}|${deliveryId}`;
  return {
    async claim(hookName, deliveryId, claim) {
      let earlier: DeliveryClaim | undefined;
      await claims.update(
        claimKey(hookName, deliveryId),
        (current) => {
          earlier = current;
          return current ?? claim;
        },
        deliveryIdTtlMs,
      );
      return earlier === undefined ? { first: true } : { first: false, earlier };
    },
    async release(hookName, deliveryId, eventId) {
      await claims.update(claimKey(hookName, deliveryId), (current) => (current?.eventId === eventId ? undefined : current));
    },
    async record(hookName, summary) {
      await recent.update(hookName, (current) => [summary, ...(current ?? [])].slice(0, recentDeliveriesKept), recentTtlMs);
    },
    async finish(hookName, eventId, outcome) {
      await recent.update(hookName, (current) => current?.map((summary) => (summary.eventId === eventId && summary.duplicate !== true ? { ...summary, ...outcome } : summary)));
    },
    recent: async (hookName) => (await recent.get(hookName)) ?? [],
  };
}
