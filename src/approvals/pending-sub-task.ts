import type { DelegationAmounts } from '../policy/delegation-budget.js';
import type { DelegationChain } from '../policy/delegation-chain.js';

/** A sub-task a suspended parent turn waits for: what it was granted, and its result once it ended. */
export type PendingSubTask = {
  /** Unique under the parent; part of the sub-task's session key. */
  readonly id: string;
  /** The parent's `delegate` call whose tool result this sub-task's result becomes. */
  readonly callId: string;
  readonly name: string;
  /** What the parent's model asked the sub-task to do: its first (user) message. */
  readonly instructions: string;
  /** The narrowed tools (planDelegation): the registry refuses every other. */
  readonly allowedTools: readonly string[];
  /** The slice of the parent's allowance held for it: its ceiling (Number.MAX_SAFE_INTEGER stands for unbounded). */
  readonly slice: DelegationAmounts;
  /** The parent's chain plus this sub-task. */
  readonly chain: DelegationChain;
  /** Its own session: `<parent session>/sub:<name>:<id>`. */
  readonly sessionKey: string;
  /** Set once it ended: its answer, or why it failed; the parent's tool result. */
  readonly result?: string;
  /** How it ended, set with `result`. */
  readonly status?: 'completed' | 'failed';
  /** What it had left of its slice when it ended, set with `result`: given back to the parent when it resumes. */
  readonly unused?: DelegationAmounts;
};

/** The link a sub-task's turn keeps to the parent waiting for it (see TurnScope.subTask). */
export type SubTaskLink = {
  readonly parentSuspensionId: string;
  readonly subTaskId: string;
  /** The sub-task's ceiling: its model calls, tokens and wall time stop there. */
  readonly slice: DelegationAmounts;
};
