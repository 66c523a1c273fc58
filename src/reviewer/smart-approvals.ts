import type { ApprovalRouteFor } from '../approvals/approval-route.js';
import type { Messages } from '../i18n/messages.js';
import type { CallReviewer } from './create-call-reviewer.js';
import type { RecentReviews } from './recent-reviews.js';
import type { SmartPreferences } from './smart-preferences.js';

/** Smart approvals as the runtime uses them: the reviewer for reviewable calls (smart mode only), the people's `/smart` choices, its recent decisions. */
export type SmartApprovals = { readonly mode: 'manual' | 'smart' | 'off'; readonly reviewCall?: CallReviewer; readonly preferences: SmartPreferences; readonly recent: RecentReviews };

/** What the `/smart` and `/approvals` reviewer commands read: the catalogue, approval routing, the clock and smart approvals. */
export type SmartApprovalCommandPorts = {
  readonly messagesFor: (channel: string) => Messages;
  readonly approvalRouteFor: ApprovalRouteFor;
  readonly now: () => Date;
  /** Absent in runtimes built without them. */
  readonly smartApprovals?: SmartApprovals;
};
