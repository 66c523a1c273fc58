import type { KeyValueNamespace } from '../store/key-value-namespace.js';
import type { ReviewerDecision } from './reviewer-verdict.js';

/** One reviewer decision as `/approvals` lists it. */
export type RecentReview = {
  readonly at: string;
  readonly toolName: string;
  /** What the call would do, in plain words (the tool's approval summary). */
  readonly summary: string;
  readonly decision: ReviewerDecision;
  readonly reason: string;
  readonly model: string;
  readonly requesterId: string;
  /** Who would have decided the card, and the channel their ids belong to. */
  readonly approvers: readonly string[];
  readonly approverChannel: string;
};

/** The last reviewer decisions, for `/approvals`. */
export interface RecentReviews {
  add(review: RecentReview): Promise<void>;
  /** The newest decisions this person asked for or would have decided, newest first. */
  listFor(userId: string, channel: string, limit: number): Promise<readonly RecentReview[]>;
}

const kept = 50;
const keepMs = 7 * 24 * 60 * 60_000;
const listKey = 'recent';

/** Keeps the last 50 reviewer decisions in one store row (7 days). */
export function createRecentReviews(namespace: KeyValueNamespace<RecentReview[]>): RecentReviews {
  return {
    async add(review) {
      await namespace.update(listKey, (current = []) => [...current, review].slice(-kept), keepMs);
    },
    async listFor(userId, channel, limit) {
      const all = (await namespace.get(listKey)) ?? [];
      return all
        .filter((review) => review.approverChannel === channel && (review.requesterId === userId || review.approvers.includes(userId)))
        .slice(-limit)
        .reverse();
    },
  };
}
