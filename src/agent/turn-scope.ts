import type { Origin } from '../events/inbound-event.js';
import type { Target } from '../events/target.js';
import type { ToolServices } from '../registry/tool-context.js';
import type { DelegationChain } from '../policy/delegation-chain.js';
import type { SubTaskLink } from '../approvals/pending-sub-task.js';
import type { DelegationAmounts } from '../policy/delegation-budget.js';

/** Everything about one turn that stays fixed while it runs: who, where, which tools, what was approved. */
export type TurnScope = {
  readonly traceId: string;
  readonly sessionKey: string;
  /** Where the answer goes (with the message to thread under). */
  readonly target: Target;
  readonly origin: Origin;
  readonly unattended: boolean;
  readonly userId: string;
  readonly userName: string;
  readonly channel: string;
  readonly chatId: string;
  readonly isGroup: boolean;
  /** The sender's own words (no quote, no attachment, no payload), the only text memory extracts facts from; absent for schedules, hooks and resumptions. */
  readonly authoredText?: string;
  /** The scheduled job that started the turn; its model calls count for the job. */
  readonly jobId?: string;
  /** Who the budgets bill instead of the sender: a webhook's client (also instead of the chat), a job's creator. */
  readonly billedTo?: string;
  readonly causationId: string;
  /** Whose tool selection the turn uses when not its channel's: a hook's own (`hook:<name>`). */
  readonly toolScope?: string;
  /** Put before the final answer: a hook's name and the link back to what its payload is about. */
  readonly replyPrefix?: string;
  readonly visibleTools: ReadonlySet<string>;
  /** A sub-task's narrowing (planDelegation): the registry refuses every other tool, whatever the prompt says. */
  readonly allowedTools?: readonly string[];
  /** A sub-task's chain, carried into its tools' context and the audit log. */
  readonly delegationChain?: DelegationChain;
  /** A sub-task's turn: its answer or failure goes to the parent waiting for it, never to the chat. */
  readonly subTask?: SubTaskLink;
  /** What was left of the turn's delegation allowance when it suspended: a resumed run never hands out more. */
  readonly allowanceLeft?: DelegationAmounts;
  /** Identifies this run of the loop across a re-run after a crash: the inbound event id, or `resume:<suspension id>`. */
  readonly runKey: string;
  /** Counts tool calls in this run; a call's position and the run key name it for the replay guard. */
  readonly callCounter: { next: number };
  readonly services: ToolServices;
  /** The turn began in this process (not resumed from the store): see ExecutionRequest.traceStartedHere. */
  readonly traceStartedHere: boolean;
  /** When its inbound event was made (ISO 8601): a cancel of the session after it stops the turn before it starts. */
  readonly queuedAt?: string;
};
