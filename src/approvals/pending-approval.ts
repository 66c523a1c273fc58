import type { ApprovalChoice } from '../events/approval-card.js';
import type { Risk } from '../events/risk.js';
import type { Target } from '../events/target.js';

/** Where an approval stands. Only `pending` can change, and only once; `cancelled`: its turn was cancelled by whoever started it. */
export type ApprovalStatus = 'pending' | 'approved' | 'denied' | 'expired' | 'superseded' | 'cancelled';

/**
 * After the decision, the turn it belongs to resumes: `resuming` (claimed by one process) then `done`
 * (the real result is in the history). Together with the status this is the state machine
 * pending → approved|denied|expired → resuming → done, each step a compare-and-set.
 */
export type ApprovalResumption = {
  readonly state: 'resuming' | 'done';
  /** The process that claimed it (a claim by an earlier process is stale after a restart). */
  readonly by: string;
  readonly at: string;
  /**
   * While `resuming`: how many times the resumption was started, counted in the claim before each start, so a start
   * that killed its process is counted. Absent on claims written before it was counted (read as 1).
   */
  readonly starts?: number;
};

/** A tool call waiting for a person, as stored. */
export type PendingApproval = {
  readonly id: string;
  readonly toolName: string;
  readonly risk: Risk;
  /** The exact validated arguments that will run if approved. */
  readonly input: unknown;
  readonly argumentsHash: string;
  readonly summary: string;
  readonly reason: string;
  /** The model-written risk explanation the card showed (`approvals.explain`), once a card was delivered. */
  readonly explanation?: string;
  readonly requester: { readonly id: string; readonly displayName: string };
  /** User ids that may decide; the requester alone when the channel has no approvers. */
  readonly approvers: readonly string[];
  /** The channel those user ids belong to: a press from any other channel is refused, whatever id it carries. */
  readonly approverChannel: string;
  readonly channel: string;
  readonly sessionKey: string;
  /** The chat the request came from: the turn resumes and answers there. */
  readonly origin: Target;
  /** Where the card was shown, and its message id when the channel reported one. */
  readonly cards: readonly { readonly target: Target; readonly messageId?: string }[];
  readonly choices: readonly ApprovalChoice[];
  readonly createdAt: string;
  readonly expiresAt: string;
  readonly status: ApprovalStatus;
  readonly scope?: 'once' | 'session' | 'always';
  readonly decidedBy?: string;
  readonly decidedAt?: string;
  readonly denialReason?: string;
  /** Set when the decision was made outside a chat: `console` (the web console); the cards say so. */
  readonly decidedVia?: 'console';
  /** The trace of the turn that asked, when known: its audit entries carry it. */
  readonly traceId?: string;
  /** Set on a budget's soft-limit card only: its choices mean continue (`once`) or stop (`deny`) for this period. */
  readonly budgetPeriod?: 'daily' | 'monthly';
  /** Absent until the decided approval's turn starts resuming. */
  readonly resumption?: ApprovalResumption;
};
