import type { Risk } from '../events/risk.js';
import type { ApprovalMode } from './define-tool.js';

/** What the approval gate is asked about one validated call. */
export type ApprovalHookRequest = {
  readonly toolName: string;
  readonly risk: Risk;
  readonly approval: ApprovalMode;
  readonly input: unknown;
  readonly argumentsHash: string;
  readonly sessionKey: string;
  readonly userId: string;
  readonly channel: string;
  readonly origin: 'user' | 'schedule' | 'system';
  readonly unattended: boolean;
  /** Hashes a person approved for this turn (after a decision, or bound into a schedule). */
  readonly approvedActions: readonly string[];
  /** The policy asked for approval (a capability rule). */
  readonly policyAsks?: string;
};

/** The gate's answer: run (and why it was cleared), refuse, or ask a person. */
export type GateDecision =
  | { readonly decision: 'allow'; readonly source: string }
  | { readonly decision: 'deny'; readonly reason: string }
  | { readonly decision: 'ask'; readonly reason: string; /** The approval reviewer may settle it before a person is asked (smart mode). */ readonly reviewable?: boolean };

/** The approval gate as the registry sees it (issue 4 implements it in src/approvals). */
export type ApprovalHook = (request: ApprovalHookRequest) => Promise<GateDecision>;
