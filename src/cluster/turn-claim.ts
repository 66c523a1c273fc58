import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The claim a worker holds on the job it is running (cluster mode). When the claim lapsed (the job
 * was taken over by another instance after a missed heartbeat), this worker is stale: it must not
 * send replies or write results any more.
 */
export type TurnClaim = {
  /** Asks the queue, now, whether this worker still holds the job. */
  readonly holds: () => Promise<boolean>;
};

/** The claim of the job on this async path; absent outside cluster mode and outside a job. */
export const turnClaim = new AsyncLocalStorage<TurnClaim>();

/** True unless this async path runs a job whose claim was taken over (a fenced, stale worker). */
export async function isClaimHeld(): Promise<boolean> {
  const claim = turnClaim.getStore();
  return claim === undefined ? true : claim.holds();
}
