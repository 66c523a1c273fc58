import type { ApprovalChoice } from '../events/approval-card.js';
import { createShortId } from '../events/create-id.js';
import type { Target } from '../events/target.js';
import type { AuditLog } from '../registry/audit-log.js';
import type { KeyValueNamespace } from '../store/key-value-namespace.js';
import type { GrantStore } from './grants.js';
import type { PendingApproval } from './pending-approval.js';

/** Input to open an approval: the record's own facts, before the service adds id, cards, times and status (and choices, unless given). */
export type ApprovalRequestInput = Pick<
  PendingApproval,
  'toolName' | 'risk' | 'input' | 'argumentsHash' | 'summary' | 'reason' | 'requester' | 'approvers' | 'approverChannel' | 'channel' | 'sessionKey' | 'origin' | 'budgetPeriod'
> & {
  readonly choices?: readonly ApprovalChoice[];
  /** The trace of the turn that asked: its audit entries join the turn's (the web console's activity view). */
  readonly traceId?: string;
  /** The id to use (an MCP caller's request maps to it before the record exists); default a new short id. */
  readonly id?: string;
};

/** Why a decision was not taken, as a value the channel shows the person. */
export type DecisionRefusal = {
  readonly ok: false;
  /** `expired`: this attempt found it past its deadline and marked it expired (the caller resumes the turn). */
  readonly code: 'not-found' | 'not-allowed' | 'already-decided' | 'choice-not-offered' | 'expired';
  readonly approval?: PendingApproval;
};

/** The outcome of a decision attempt: taken exactly once, or refused. */
export type DecisionResult = { readonly ok: true; readonly approval: PendingApproval } | DecisionRefusal;

/**
 * What a claim on a decided approval's resumption found: `claimed` (this start is counted in `starts`), `over`
 * (still pending, its turn done, or the record gone: nothing to resume) or `exhausted` (already started `starts`
 * times without finishing, as many as `parkAfter` allows: not claimed, the caller parks it).
 */
export type ResumptionClaim = { readonly outcome: 'claimed' | 'exhausted'; readonly starts: number } | { readonly outcome: 'over' };

/** Pending approvals with exactly-once decisions, grants and expiry. */
export interface ApprovalsService {
  open(input: ApprovalRequestInput): Promise<PendingApproval>;
  get(id: string): Promise<PendingApproval | undefined>;
  /** Records a delivered card (so decisions can edit it), and the risk explanation it showed, in the same write. */
  attachCard(id: string, card: { readonly target: Target; readonly messageId?: string; readonly explanation?: string }): Promise<void>;
  decide(input: {
    readonly id: string;
    readonly deciderId: string;
    /** The channel the decision came from: user ids are only meaningful within their channel. */
    readonly deciderChannel: string;
    readonly deciderName: string;
    readonly choice: ApprovalChoice;
    readonly reason?: string;
    /** Where the decision was made when not in a chat: `console` (the web console); stored on the record and audited. */
    readonly via?: 'console';
  }): Promise<DecisionResult>;
  /** Pending approvals this person may decide, newest first. */
  listDecidableBy(deciderId: string, channel: string): Promise<readonly PendingApproval[]>;
  /** The newest pending approval whose card was shown in this chat (WeChat's numbered replies). */
  latestPendingIn(target: Target): Promise<PendingApproval | undefined>;
  /**
   * Claims the resumption of a decided approval for this process and counts the start, in one compare-and-set. A
   * `resuming` claim is taken over: within a process the session lane already runs one resumption at a time, and a
   * claim left by a process that died must not block the turn for ever; but one already started `parkAfter` times
   * (`bus.parkAfterInterruptions`; no limit when absent) is not: the resumption is `exhausted`.
   */
  claimResumption(id: string, instanceId: string, options?: { readonly parkAfter?: number }): Promise<ResumptionClaim>;
  /** Marks the resumed turn done: the approval's lifecycle is over. */
  finishResumption(id: string, instanceId: string): Promise<void>;
  /**
   * Closes a pending approval as `cancelled` because its turn was cancelled (compare-and-set, audited); returns the
   * record when this call closed it, undefined when it was decided, expired or gone before.
   */
  cancel(id: string, by: string): Promise<PendingApproval | undefined>;
  /** Marks every pending approval past its expiry as expired; returns those it changed. */
  expireDue(now: Date): Promise<readonly PendingApproval[]>;
  readonly grants: GrantStore;
}

/** What the service is built from. */
export type ApprovalsServiceOptions = {
  readonly approvals: KeyValueNamespace<PendingApproval>;
  readonly index: KeyValueNamespace<string[]>;
  readonly grants: GrantStore;
  readonly audit: AuditLog;
  readonly timeoutMs: number;
  readonly now?: () => Date;
};

const pendingIndexKey = 'pending';
const keepDecidedMs = 7 * 24 * 60 * 60 * 1000;

/** Creates the approvals service over the store. */
export function createApprovalsService(options: ApprovalsServiceOptions): ApprovalsService {
  const now = options.now ?? (() => new Date());

  async function pendingIds(): Promise<string[]> {
    return (await options.index.get(pendingIndexKey)) ?? [];
  }

  async function removeFromIndex(id: string): Promise<void> {
    await options.index.update(pendingIndexKey, (ids = []) => ids.filter((item) => item !== id));
  }

  async function loadPending(): Promise<PendingApproval[]> {
    const found = await Promise.all((await pendingIds()).map((id) => options.approvals.get(id)));
    return found.filter((approval): approval is PendingApproval => approval?.status === 'pending');
  }

  return {
    grants: options.grants,
    async open(input) {
      const created = now();
      const approval: PendingApproval = {
        ...input,
        id: input.id ?? createShortId(),
        cards: [],
        choices: input.choices ?? (input.risk === 'dangerous' ? ['once', 'session', 'deny'] : ['once', 'session', 'always', 'deny']),
        createdAt: created.toISOString(),
        expiresAt: new Date(created.getTime() + options.timeoutMs).toISOString(),
        status: 'pending',
      };
      await options.approvals.set(approval.id, approval, options.timeoutMs + keepDecidedMs);
      await options.index.update(pendingIndexKey, (ids = []) => [...ids, approval.id]);
      options.audit.record({
        kind: 'approval-requested',
        approvalId: approval.id,
        ...(input.traceId === undefined ? {} : { traceId: input.traceId }),
        sessionKey: input.sessionKey,
        userId: input.requester.id,
        channel: input.channel,
        tool: input.toolName,
        arguments: input.input,
        outcome: 'pending',
      });
      return approval;
    },
    get: (id) => options.approvals.get(id),
    async attachCard(id, { explanation, ...card }) {
      await options.approvals.update(id, (current) => (current ? { ...current, cards: [...current.cards, card], ...(explanation === undefined || explanation === '' ? {} : { explanation }) } : current));
    },
    async decide({ id, deciderId, deciderChannel, deciderName, choice, reason, via }) {
      let refusal: DecisionRefusal | undefined;
      const updated = await options.approvals.update(id, (current) => {
        if (!current) {
          refusal = { ok: false, code: 'not-found' };
          return current;
        }
        // Ids are compared within the approvers' channel, so a webhook senderId equal to a Telegram approver's id decides nothing.
        if (deciderChannel !== current.approverChannel || !current.approvers.includes(deciderId)) {
          refusal = { ok: false, code: 'not-allowed', approval: current };
          return current;
        }
        // Expiry is checked at decision time too, so a press after the deadline cannot approve.
        if (current.status === 'pending' && new Date(current.expiresAt) <= now()) {
          refusal = { ok: false, code: 'expired', approval: { ...current, status: 'expired', decidedAt: current.expiresAt } };
          return { ...current, status: 'expired', decidedAt: current.expiresAt };
        }
        if (current.status !== 'pending') {
          refusal = { ok: false, code: 'already-decided', approval: current };
          return current;
        }
        if (!current.choices.includes(choice)) {
          refusal = { ok: false, code: 'choice-not-offered', approval: current };
          return current;
        }
        const decidedAt = now().toISOString();
        const where = via === undefined ? {} : { decidedVia: via };
        return choice === 'deny'
          ? { ...current, status: 'denied', decidedBy: deciderName, decidedAt, denialReason: reason, ...where }
          : { ...current, status: 'approved', scope: choice, decidedBy: deciderName, decidedAt, ...where };
      });
      if (refusal) {
        if (refusal.code === 'expired') await removeFromIndex(id);
        return refusal;
      }
      if (!updated) return { ok: false, code: 'not-found' };
      await removeFromIndex(id);
      if (updated.status === 'approved' && (updated.scope === 'session' || updated.scope === 'always')) {
        const grant = { toolName: updated.toolName, argumentsHash: updated.argumentsHash, summary: updated.summary, grantedBy: deciderName, grantedAt: updated.decidedAt ?? '' };
        await options.grants.add(updated.scope, updated.scope === 'session' ? updated.sessionKey : `${updated.channel}:${updated.requester.id}`, grant);
      }
      options.audit.record({
        kind: 'approval-decided',
        approvalId: id,
        ...(updated.traceId === undefined ? {} : { traceId: updated.traceId }),
        sessionKey: updated.sessionKey,
        userId: deciderId,
        channel: updated.channel,
        tool: updated.toolName,
        outcome: updated.status === 'approved' ? `approved:${updated.scope}` : 'denied',
        decidedBy: deciderName,
        ...(via === undefined ? {} : { via }),
      });
      return { ok: true, approval: updated };
    },
    async listDecidableBy(deciderId, channel) {
      const pending = await loadPending();
      return pending.filter((approval) => approval.approverChannel === channel && approval.approvers.includes(deciderId)).reverse();
    },
    async latestPendingIn(target) {
      const pending = await loadPending();
      return pending
        .filter((approval) => approval.cards.some((card) => card.target.channel === target.channel && card.target.chatId === target.chatId))
        .at(-1);
    },
    async claimResumption(id, instanceId, claimOptions = {}) {
      let claim: ResumptionClaim = { outcome: 'over' };
      await options.approvals.update(id, (current) => {
        if (!current || current.status === 'pending' || current.resumption?.state === 'done') return current;
        const started = current.resumption?.state === 'resuming' ? (current.resumption.starts ?? 1) : 0;
        if (claimOptions.parkAfter !== undefined && started >= claimOptions.parkAfter) {
          claim = { outcome: 'exhausted', starts: started };
          return current;
        }
        claim = { outcome: 'claimed', starts: started + 1 };
        return { ...current, resumption: { state: 'resuming', by: instanceId, at: now().toISOString(), starts: started + 1 } };
      });
      return claim;
    },
    async finishResumption(id, instanceId) {
      await options.approvals.update(id, (current) => (current ? { ...current, resumption: { state: 'done', by: instanceId, at: now().toISOString() } } : current));
    },
    async cancel(id, by) {
      let changed: PendingApproval | undefined;
      await options.approvals.update(id, (current) => {
        if (current?.status !== 'pending') return current;
        changed = { ...current, status: 'cancelled', decidedBy: by, decidedAt: now().toISOString() };
        return changed;
      });
      if (changed === undefined) return undefined;
      await removeFromIndex(id);
      const traceId = changed.traceId === undefined ? {} : { traceId: changed.traceId };
      options.audit.record({ kind: 'approval-cancelled', approvalId: id, ...traceId, sessionKey: changed.sessionKey, channel: changed.channel, tool: changed.toolName, outcome: 'cancelled', decidedBy: by });
      return changed;
    },
    async expireDue(at) {
      const expired: PendingApproval[] = [];
      for (const id of await pendingIds()) {
        let changed: PendingApproval | undefined;
        await options.approvals.update(id, (current) => {
          if (current?.status !== 'pending' || new Date(current.expiresAt) > at) return current;
          changed = { ...current, status: 'expired', decidedAt: at.toISOString() };
          return changed;
        });
        const current = changed ? undefined : await options.approvals.get(id);
        if (changed || !current || current.status !== 'pending') await removeFromIndex(id);
        if (changed) {
          expired.push(changed);
          options.audit.record({ kind: 'approval-expired', approvalId: id, sessionKey: changed.sessionKey, channel: changed.channel, tool: changed.toolName, outcome: 'expired' });
        }
      }
      return expired;
    },
  };
}
