import type { Risk } from './risk.js';

/** A decision a person can take on an approval card. */
export type ApprovalChoice = 'once' | 'session' | 'always' | 'deny';

/** What a person needs to decide an approval in seconds. Rendered by each channel its own way. */
export type ApprovalCard = {
  readonly approvalId: string;
  readonly toolName: string;
  /** What will happen, in plain words (the tool's describeForApproval). */
  readonly summary: string;
  /** The exact arguments, secrets masked, long values cut safely. */
  readonly argumentsText: string;
  readonly risk: Risk;
  readonly requestedBy: string;
  /** ISO 8601. */
  readonly expiresAt: string;
  /** One sentence written by the model; always labelled as the assistant's explanation. */
  readonly explanation: string;
  /** Why the approval reviewer asked a person instead of settling the call itself (smart mode). */
  readonly reviewerNote?: string;
  readonly choices: readonly ApprovalChoice[];
  /** Button labels that replace the usual ones (a budget card's "Continue for today" and "Stop until tomorrow"). */
  readonly choiceLabels?: Partial<Readonly<Record<ApprovalChoice, string>>>;
};
