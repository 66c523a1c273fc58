import type { KeyValueNamespace } from '../../src/store/key-value-namespace.js';

/** A card this channel showed: whose conversation it belongs to, so a decision over HTTP is checked before it is sent on. */
export type ApiApproval = {
  readonly id: string;
  readonly chatId: string;
  readonly sessionKey: string;
  /** The user of the key whose request raised it. */
  readonly ownerId: string;
  readonly summary: string;
  readonly expiresAt: string;
  /** `pending` until this channel sees the card resolved; then its outcome line. */
  readonly outcome?: string;
};

/** How long a card's record is kept after it was shown. */
export const apiApprovalTtlMs = 7 * 24 * 60 * 60 * 1000;

/** The cards shown to OpenAI clients, by approval id. */
export interface ApiApprovals {
  remember(approval: ApiApproval): Promise<void>;
  get(id: string): Promise<ApiApproval | undefined>;
  resolved(id: string, outcome: string): Promise<void>;
}

/** Creates the card records over a store namespace. */
export function createApiApprovals(namespace: KeyValueNamespace<ApiApproval>): ApiApprovals {
  return {
    remember: (approval) => namespace.set(approval.id, approval, apiApprovalTtlMs),
    get: (id) => namespace.get(id),
    async resolved(id, outcome) {
      await namespace.update(id, (current) => (current === undefined ? undefined : { ...current, outcome }));
    },
  };
}
