import type { ApprovalHook, ApprovalHookRequest, GateDecision } from '../registry/approval-hook.js';
import type { GrantStore } from './grants.js';

/** A check for patterns so harmful that no person may approve them; returns the reason. */
export type HardBlock = (toolName: string, input: unknown) => string | undefined;

/** What the gate is built from. */
export type ApprovalGateOptions = {
  readonly hardBlocks: readonly HardBlock[];
  readonly require: readonly string[];
  readonly autoApprove: readonly string[];
  readonly grants: GrantStore;
  /** True when unattended turns may send cards to approvers (`approvals.route: approvers` with approvers set). */
  readonly canAskWhenUnattended: (channel: string) => boolean;
  /** `approvals.mode`; default manual. */
  readonly mode?: 'manual' | 'smart' | 'off';
};

/**
 * The approval gate. Decision order, first match wins:
 * 1. hard-blocked patterns: deny, never approvable;
 * 2. a call a person already approved (its exact hash is in approvedActions, e.g. bound into a schedule): allow;
 * 3. unattended turns (schedule, webhook): read_only and write run unless they must ask; exec and dangerous are
 *    denied; anything that must ask is denied unless cards can go to approvers;
 * 4. the tool's approval setting and config: `approvals.autoApprove` allows, `approvals.require` asks,
 *    `never` allows, `always` asks, `by-risk` lets read_only and write run and asks for exec and dangerous;
 *    `approvals.mode: off` then allows what only the tool's own setting asks about (attended turns only);
 * 5. an existing session or always grant for the same tool and arguments: allow;
 * 6. ask; in `smart` mode an attended exec or write call the tool itself asks about is marked reviewable.
 */
export function createApprovalGate(options: ApprovalGateOptions): ApprovalHook {
  return async (request: ApprovalHookRequest): Promise<GateDecision> => {
    for (const block of options.hardBlocks) {
      const reason = block(request.toolName, request.input);
      if (reason) return { decision: 'deny', reason: `Refused and cannot be approved: ${reason}` };
    }
    if (request.approvedActions.includes(request.argumentsHash)) return { decision: 'allow', source: 'approved' };

    const mustAsk = mustAskFor(request, options);
    if (request.unattended) {
      if (request.risk === 'exec' || request.risk === 'dangerous') {
        return { decision: 'deny', reason: `"${request.toolName}" (${request.risk}) cannot run in an unattended ${request.origin} turn without an approval bound to it.` };
      }
      if (mustAsk === undefined) return { decision: 'allow', source: 'unattended-policy' };
      if (!options.canAskWhenUnattended(request.channel)) {
        return { decision: 'deny', reason: `"${request.toolName}" needs a person's approval, and nobody is watching this turn (${unattendedTurnKinds[request.origin]}).` };
      }
    }
    if (mustAsk === undefined) return { decision: 'allow', source: options.autoApprove.includes(request.toolName) ? 'auto-approve' : 'policy' };
    // Only the tool's own approval setting gives way; what the config requires (approvals.require, capability rules) always asks.
    const fromTool = mustAsk.by === 'tool';
    if (options.mode === 'off' && fromTool && !request.unattended) return { decision: 'allow', source: 'approvals-off' };

    const grant = await options.grants.has({
      sessionKey: request.sessionKey,
      userKey: `${request.channel}:${request.userId}`,
      toolName: request.toolName,
      argumentsHash: request.argumentsHash,
    });
    if (grant) return { decision: 'allow', source: `grant:${grant}` };
    // The reviewer may settle only attended exec and write calls the tool itself asks about: never dangerous, never what the config requires.
    const reviewable = options.mode === 'smart' && fromTool && !request.unattended && (request.risk === 'exec' || request.risk === 'write');
    return { decision: 'ask', reason: mustAsk.reason, ...(reviewable ? { reviewable } : {}) };
  };
}

/** Why this call must ask and who says so (the config, or the tool's own setting), or undefined when it may run. */
function mustAskFor(request: ApprovalHookRequest, options: ApprovalGateOptions): { readonly reason: string; readonly by: 'config' | 'tool' } | undefined {
  if (options.autoApprove.includes(request.toolName)) return undefined;
  if (options.require.includes(request.toolName)) return { reason: 'approvals.require lists this tool', by: 'config' };
  if (request.policyAsks) return { reason: request.policyAsks, by: 'config' };
  switch (request.approval) {
    case 'never':
      return undefined;
    case 'always':
      return { reason: 'this tool always asks', by: 'tool' };
    case 'by-risk':
      return request.risk === 'exec' || request.risk === 'dangerous' ? { reason: `its risk is ${request.risk}`, by: 'tool' } : undefined;
  }
}

/** How a refusal names an unattended turn, by its origin. */
const unattendedTurnKinds: Readonly<Record<ApprovalHookRequest['origin'], string>> = {
  user: 'a person',
  schedule: 'a scheduled task',
  system: 'started by another system',
};
