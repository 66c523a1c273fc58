/** One step of a delegation: the sub-task a parent turn handed work to. */
export type DelegationLink = {
  /** The sub-task's name as the parent's model gave it (e.g. `fix-tests`). */
  readonly name: string;
  /** The execution id of the parent turn that delegated. */
  readonly parentExecutionId: string;
  /** The agent that runs the sub-task. */
  readonly agentId: string;
};

/** The sub-tasks from the root turn down to this one, root's child first; empty for a turn a person started. */
export type DelegationChain = readonly DelegationLink[];

/** The session key of a sub-task: its own lane and journal rows, under its parent's session. */
export function delegationSessionKey(input: { readonly parentSessionKey: string; readonly name: string; readonly id: string }): string {
  return `${input.parentSessionKey}/sub:${input.name}:${input.id}`;
}

/** How a card names the chain a call came through: "via sub-task lint of sub-task fix-tests of your request". */
export function describeDelegationChain(chain: DelegationChain): string | undefined {
  if (chain.length === 0) return undefined;
  const steps = [...chain].reverse().map((link) => `sub-task ${link.name}`);
  return `via ${steps.join(' of ')} of your request`;
}
