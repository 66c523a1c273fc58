import type { BudgetRef } from '../budgets/budget-check.js';
import type { ToolCall } from '../model/chat-message.js';
import type { Origin } from '../events/inbound-event.js';
import type { Target } from '../events/target.js';
import type { ElicitationAnswer, ElicitationForm } from '../registry/elicitation.js';
import type { DelegationChain } from '../policy/delegation-chain.js';
import type { PendingSubTask, SubTaskLink } from './pending-sub-task.js';
import type { DelegationAmounts } from '../policy/delegation-budget.js';

/** What every suspended turn records: whose turn it is and where it answers. */
type SuspendedTurnBase = {
  /** The approval id or question id it waits on. */
  readonly id: string;
  readonly sessionKey: string;
  readonly traceId: string;
  readonly target: Target;
  readonly origin: Origin;
  readonly unattended: boolean;
  /** The turn came from a group chat (the resumed turn gets the same system prompt). */
  readonly isGroup?: boolean;
  readonly userId: string;
  readonly userName: string;
  /** The scheduled job that started the turn, if one did. */
  readonly jobId?: string;
  /** Who the turn's budgets bill instead of its sender (see TurnScope.billedTo). */
  readonly billedTo?: string;
  /** The tool selection the turn used when not its channel's (a hook's): a resumption keeps it (see TurnScope.toolScope). */
  readonly toolScope?: string;
  /** See TurnScope.replyPrefix. */
  readonly replyPrefix?: string;
  /** A sub-task's narrowing (see TurnScope.allowedTools): its resumption keeps it, never its channel's full set. */
  readonly allowedTools?: readonly string[];
  /** A sub-task's chain (see TurnScope.delegationChain). */
  readonly delegationChain?: DelegationChain;
  /** Set in a sub-task's turn: the parent waiting for its result (see TurnScope.subTask). */
  readonly subTask?: SubTaskLink;
  /** What was left of the turn's delegation allowance (see TurnScope.allowanceLeft). */
  readonly allowanceLeft?: DelegationAmounts;
  readonly causationId?: string;
  readonly createdAt: string;
  /** The W3C traceparent of the turn's span when tracing is on: its resumption continues that trace. */
  readonly traceparent?: string;
  /**
   * Starts of its resumption when no approval claim counts them (answered questions; an approval whose record is
   * gone): counted here before each start, so a start that killed its process is counted.
   */
  readonly resumeStarts?: number;
  /** Set when its resumption was parked (interrupted too often): no sweep resumes it until `/parked retry` clears it. */
  readonly parkedAt?: string;
};

/** A turn waiting on a tool call: for a person's approval, or for the answer to an `ask_user` question. */
export type SuspendedCall = SuspendedTurnBase & {
  readonly kind: 'approval' | 'question';
  /** The call waiting for the decision or answer. */
  readonly call: ToolCall;
  /** Calls after it in the same batch, not yet run; each already has a placeholder result in history. */
  readonly remainingCalls: readonly ToolCall[];
  /** For questions: the options offered. */
  readonly options?: readonly string[];
  readonly question?: string;
  /** For questions: the option the person picked, set just before the turn resumes. */
  readonly answer?: string;
  readonly answeredBy?: string;
  /** For questions an MCP server asked during the call (elicitation): the request, the answers so far, who may answer. */
  readonly elicitation?: PendingElicitation;
};

/** An MCP server's request for input that a suspended call waits on, asked one field at a time. */
export type PendingElicitation = {
  readonly form: ElicitationForm;
  /** The call's argument hash: the resumed call runs under the approval it already had. */
  readonly argumentsHash: string;
  /** The field asked now (its position in the form). */
  readonly fieldIndex: number;
  /** The values given so far, by field name. */
  readonly content: Readonly<Record<string, unknown>>;
  /** Who may answer: the chat's approvers when the tool's risk is above read_only, else the person whose turn it is. */
  readonly answerers: readonly string[];
  /** Whether the question shows its reply words as buttons (false on channels with numbered replies). */
  readonly typedChoices: boolean;
  /** The final answer, set with `answer` just before the turn resumes. */
  readonly answer?: ElicitationAnswer;
};

/** A turn held before its first model call by a budget's soft-limit card (an approval with the same id). */
export type SuspendedForBudget = SuspendedTurnBase & { readonly kind: 'budget'; readonly budget: BudgetRef; readonly resetsAt: string };

/**
 * A turn waiting for its sub-tasks (the `delegate` tool): it resumes once every one of them ended, with their
 * answers or failures as the results of its `delegate` calls.
 */
export type SuspendedDelegation = SuspendedTurnBase & {
  readonly kind: 'delegation';
  /** The first `delegate` call (the others are in `subTasks`): what `call` is for the other kinds. */
  readonly call: ToolCall;
  /** Calls after the `delegate` calls in the same batch, not yet run. */
  readonly remainingCalls: readonly ToolCall[];
  readonly subTasks: readonly PendingSubTask[];
};

/** A turn waiting for a person or its sub-tasks: saved in the store so it resumes after a restart too. */
export type SuspendedTurn = SuspendedCall | SuspendedForBudget | SuspendedDelegation;

/** The text a placeholder tool result carries while its call waits; replaced by the real result on resume. */
export function placeholderText(suspensionId: string, kind: SuspendedCall['kind'], isWaitingCall: boolean): string {
  if (!isWaitingCall) return `Not run yet: queued behind ${kind} ${suspensionId}.`;
  return kind === 'approval'
    ? `Waiting for a person to approve (approval ${suspensionId}); it has not run.`
    : `Waiting for the person to answer (question ${suspensionId}).`;
}
