import type { Target } from '../events/target.js';

/** Where approval cards for a channel go, and who may decide them. */
export type ApprovalRoute = {
  readonly approvers: readonly string[];
  /** The channel the approver ids belong to. */
  readonly approverChannel: string;
  readonly targets: readonly Target[];
};

/** Who decides approvals raised in a channel by a requester, and where the cards go. */
export type ApprovalRouteFor = (input: { readonly channel: string; readonly requesterId: string; readonly origin: Target; readonly unattended: boolean }) => ApprovalRoute;
