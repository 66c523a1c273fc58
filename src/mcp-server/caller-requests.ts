import type { ApprovalRouteFor } from '../approvals/approval-route.js';
import type { ApprovalsService } from '../approvals/approvals-service.js';
import type { CallerQuestions } from '../approvals/caller-questions.js';
import type { PendingApproval } from '../approvals/pending-approval.js';
import type { BudgetControl } from '../budgets/create-budget-control.js';
import { assertNever } from '../events/assert-never.js';
import { createShortId } from '../events/create-id.js';
import type { Outbox } from '../events/outbox.js';
import type { Risk } from '../events/risk.js';
import type { AuditLog } from '../registry/audit-log.js';
import type { KeyValueNamespace } from '../store/key-value-namespace.js';
import type { RateLimiter } from './create-rate-limiter.js';
import type { ServeCaller } from './serve-caller.js';
import { describeApprovalCard, describeNotification, describeQuestion } from './serve-texts.js';
import { waitUntilSettled } from './wait-until-settled.js';

/** A caller's request id mapped to the record it raised (a caller question or an approval), so a repeat finds it. */
export type CallerRequestRecord = { readonly kind: 'question' | 'approval'; readonly recordId: string; readonly requestId: string; readonly createdAt: string };

/** A call that was not taken: past the key's rate, a used-up budget, an id reused for another tool, a card not shown. */
export type CallerRefusal = { readonly status: 'refused'; readonly reason: string; readonly retryAfterSeconds?: number };

/** Where an ask_person call stands: the answer, still pending (call again with the same id), or expired unanswered. */
export type AskOutcome =
  | { readonly status: 'answered'; readonly id: string; readonly answer: string; readonly answeredBy: string }
  | { readonly status: 'pending'; readonly id: string; readonly expiresAt: string }
  | { readonly status: 'expired'; readonly id: string };

/** Where a request_approval call stands: decided (with the approver's name), pending, or expired undecided. */
export type ApprovalOutcome =
  | { readonly status: 'approved' | 'denied'; readonly id: string; readonly decidedBy: string; readonly reason?: string }
  | { readonly status: 'pending'; readonly id: string; readonly expiresAt: string }
  | { readonly status: 'expired'; readonly id: string };

/** One open request of the caller's key, for list_pending. */
export type PendingItem = { readonly id: string; readonly kind: 'question' | 'approval'; readonly text: string; readonly createdAt: string; readonly expiresAt: string };

/** How long to wait for the answer, and the caller's hang-up. */
export type WaitOptions = { readonly waitMs: number; readonly signal?: AbortSignal };

/** What MCP callers can do through echo-agent: ask a person, ask for approval, notify, list what is open. */
export interface CallerRequests {
  ask(caller: ServeCaller, input: WaitOptions & { readonly requestId?: string; readonly question: string; readonly options: readonly string[] }): Promise<AskOutcome | CallerRefusal>;
  requestApproval(caller: ServeCaller, input: WaitOptions & { readonly requestId?: string; readonly action: string; readonly details?: string; readonly risk: Risk }): Promise<ApprovalOutcome | CallerRefusal>;
  notify(caller: ServeCaller, input: { readonly text: string }): Promise<{ readonly status: 'sent' } | CallerRefusal>;
  listPending(caller: ServeCaller): Promise<{ readonly status: 'ok'; readonly pending: readonly PendingItem[] } | CallerRefusal>;
}

/** What the caller requests are built from: the same approval service, audit log, budgets and outbox as the agent's turns. */
export type CallerRequestsOptions = {
  readonly approvals: ApprovalsService;
  readonly approvalRouteFor: ApprovalRouteFor;
  readonly questions: CallerQuestions;
  /** `<key name>:<request id>` → the record it raised. */
  readonly requests: KeyValueNamespace<CallerRequestRecord>;
  /** Key name → its request ids, newest last (at most 200). */
  readonly requestIndex: KeyValueNamespace<string[]>;
  readonly outbox: Outbox;
  readonly audit: AuditLog;
  readonly budgets?: BudgetControl;
  readonly limiter: RateLimiter;
  /** How often a waiting call reads its record again. */
  readonly pollMs: number;
  /** How long a request id is remembered. */
  readonly keepMs: number;
};

const indexLimit = 200;

/** Creates the caller requests over the store and the approval service. */
export function createCallerRequests(options: CallerRequestsOptions): CallerRequests {
  // Two calls with one request id at once in this process raise one record: the second waits for the first.
  const raising = new Map<string, Promise<unknown>>();

  function admit(caller: ServeCaller): CallerRefusal | undefined {
    const rate = options.limiter.take(caller.key.name, caller.key.callsPerMinute);
    return rate.allowed ? undefined : { status: 'refused', reason: `Rate limit of ${caller.key.callsPerMinute} calls a minute for this key reached.`, retryAfterSeconds: rate.retryAfterSeconds };
  }

  /** Whether the key's person may raise something new: a used-up or stopped budget refuses (polls and lists still work). */
  async function checkBudget(caller: ServeCaller): Promise<CallerRefusal | undefined> {
    if (!options.budgets) return undefined;
    const { channel, chatId } = caller.target;
    const check = await options.budgets.check({ origin: 'user', sessionKey: `${channel}:${chatId}`, userId: caller.key.user, channel, chatId }, { attended: true });
    if (check.kind === 'hard' || check.kind === 'stopped') return { status: 'refused', reason: `The ${check.status.period} ${check.status.scope} budget of this key's person is used up until ${check.status.resetsAt}.` };
    return undefined;
  }

  async function remember(caller: ServeCaller, record: CallerRequestRecord): Promise<CallerRequestRecord> {
    const written = await options.requests.update(`${caller.key.name}:${record.requestId}`, (current) => current ?? record, options.keepMs);
    if (written?.recordId === record.recordId) {
      await options.requestIndex.update(caller.key.name, (ids = []) => [...ids.filter((id) => id !== record.requestId), record.requestId].slice(-indexLimit), options.keepMs);
    }
    return written ?? record;
  }

  /** Finds the record a request id raised, or raises it once; a record whose card failed is forgotten so a repeat raises it again. */
  async function findOrRaise<Outcome>(
    caller: ServeCaller,
    request: {
      readonly kind: CallerRequestRecord['kind'];
      readonly requestId: string;
      /** Opens the record under this id and shows it; a refusal when it could not be shown. */
      readonly raise: (recordId: string) => Promise<CallerRefusal | undefined>;
      readonly read: (recordId: string) => Promise<Outcome | undefined>;
    },
  ): Promise<{ readonly recordId: string } | CallerRefusal> {
    const { kind, requestId, raise, read } = request;
    const slot = `${caller.key.name}:${requestId}`;
    while (raising.has(slot)) await raising.get(slot)?.catch(() => undefined);
    const work = (async (): Promise<{ readonly recordId: string } | CallerRefusal> => {
      const known = await options.requests.get(slot);
      if (known && known.kind !== kind) return { status: 'refused', reason: `The id ${requestId} was used for a ${known.kind} already; use a new id.` };
      if (known && (await read(known.recordId)) !== undefined) return { recordId: known.recordId };
      const refused = await checkBudget(caller);
      if (refused) return refused;
      const record = await remember(caller, known ?? { kind, recordId: createShortId(), requestId, createdAt: new Date().toISOString() });
      const failed = await raise(record.recordId);
      if (failed) {
        await options.requests.delete(slot);
        return failed;
      }
      return { recordId: record.recordId };
    })();
    raising.set(slot, work);
    try {
      return await work;
    } finally {
      raising.delete(slot);
    }
  }

  const readQuestion = (id: string) => options.questions.get(id);
  const readApproval = (id: string) => options.approvals.get(id);

  return {
    async ask(caller, input) {
      const refused = admit(caller);
      if (refused) return refused;
      const requestId = input.requestId ?? createShortId();
      const found = await findOrRaise(caller, {
        kind: 'question',
        requestId,
        read: readQuestion,
        raise: async (recordId) => {
        const question = await options.questions.open({ id: recordId, question: input.question, options: input.options, target: caller.target, askedBy: caller.identity });
        const delivery = await options.outbox.send({ type: 'question-asked', target: caller.target, questionId: question.id, text: describeQuestion(caller, input.question, input.options), options: input.options });
        if (delivery.ok) return undefined;
        await options.questions.withdraw(question.id);
        return { status: 'refused', reason: `The question could not be shown in ${caller.target.channel}:${caller.target.chatId}: ${delivery.error}` };
        },
      });
      if ('status' in found) return found;
      const question = await waitUntilSettled({ read: () => readQuestion(found.recordId), isSettled: (value) => value?.status !== 'pending', waitMs: input.waitMs, pollMs: options.pollMs, signal: input.signal });
      if (!question) return { status: 'expired', id: requestId };
      switch (question.status) {
        case 'answered':
          return { status: 'answered', id: requestId, answer: question.answer ?? '', answeredBy: question.answeredBy ?? '?' };
        case 'pending':
          return { status: 'pending', id: requestId, expiresAt: question.expiresAt };
        case 'expired':
          return { status: 'expired', id: requestId };
        default:
          return assertNever(question.status, 'caller question status');
      }
    },

    async requestApproval(caller, input) {
      const refused = admit(caller);
      if (refused) return refused;
      const requestId = input.requestId ?? createShortId();
      const found = await findOrRaise(caller, {
        kind: 'approval',
        requestId,
        read: readApproval,
        raise: async (recordId) => {
        const route = options.approvalRouteFor({ channel: caller.target.channel, requesterId: caller.key.user, origin: caller.target, unattended: false });
        const summary = input.details === undefined ? input.action : `${input.action}\n\n${input.details}`;
        const approval = await options.approvals.open({
          id: recordId,
          toolName: 'request_approval',
          risk: input.risk,
          input: { action: input.action, details: input.details, raisedBy: caller.identity },
          argumentsHash: `mcp:${caller.key.name}:${requestId}`,
          summary,
          reason: `raised through MCP by ${caller.identity.client} (key ${caller.key.name})`,
          requester: { id: caller.key.user, displayName: `${caller.identity.client} (MCP key ${caller.key.name})` },
          approvers: route.approvers.length > 0 ? route.approvers : [caller.key.user],
          approverChannel: route.approverChannel,
          channel: caller.target.channel,
          sessionKey: `${caller.target.channel}:${caller.target.chatId}`,
          origin: caller.target,
          choices: ['once', 'deny'],
        });
        let shown = 0;
        for (const target of route.targets) {
          const delivery = await options.outbox.send({ type: 'approval-requested', target, approval: describeApprovalCard(caller, approval) });
          if (!delivery.ok) continue;
          shown += 1;
          await options.approvals.attachCard(approval.id, { target, messageId: delivery.messageId });
        }
        return shown > 0 ? undefined : { status: 'refused', reason: 'The approval card could not be shown to any approver.' };
        },
      });
      if ('status' in found) return found;
      const approval = await waitUntilSettled({ read: () => readApproval(found.recordId), isSettled: (value) => value?.status !== 'pending', waitMs: input.waitMs, pollMs: options.pollMs, signal: input.signal });
      return approvalOutcome(requestId, approval);
    },

    async notify(caller, input) {
      const refused = admit(caller) ?? (await checkBudget(caller));
      if (refused) return refused;
      const delivery = await options.outbox.send({ type: 'reply', target: caller.target, text: describeNotification(caller, input.text), kind: 'message' });
      options.audit.record({ kind: 'notification-sent', userId: caller.key.user, channel: caller.target.channel, tool: 'notify', arguments: { text: input.text }, outcome: delivery.ok ? 'sent' : `failed: ${delivery.error}`, reason: `MCP key ${caller.key.name} (${caller.identity.client})` });
      return delivery.ok ? { status: 'sent' } : { status: 'refused', reason: `The message could not be delivered: ${delivery.error}` };
    },

    async listPending(caller) {
      const refused = admit(caller);
      if (refused) return refused;
      const pending: PendingItem[] = [];
      for (const requestId of (await options.requestIndex.get(caller.key.name)) ?? []) {
        const record = await options.requests.get(`${caller.key.name}:${requestId}`);
        if (record?.kind === 'question') {
          const question = await readQuestion(record.recordId);
          if (question?.status === 'pending') pending.push({ id: requestId, kind: 'question', text: question.question, createdAt: question.createdAt, expiresAt: question.expiresAt });
        } else if (record?.kind === 'approval') {
          const approval = await readApproval(record.recordId);
          if (approval?.status === 'pending' && new Date(approval.expiresAt) > new Date()) pending.push({ id: requestId, kind: 'approval', text: approval.summary, createdAt: approval.createdAt, expiresAt: approval.expiresAt });
        }
      }
      return { status: 'ok', pending };
    },
  };
}

/** The caller's view of an approval record. Pure. */
function approvalOutcome(requestId: string, approval: PendingApproval | undefined): ApprovalOutcome {
  if (!approval) return { status: 'expired', id: requestId };
  switch (approval.status) {
    case 'approved':
      return { status: 'approved', id: requestId, decidedBy: approval.decidedBy ?? '?' };
    case 'denied':
      return { status: 'denied', id: requestId, decidedBy: approval.decidedBy ?? '?', ...(approval.denialReason === undefined ? {} : { reason: approval.denialReason }) };
    case 'pending':
      return new Date(approval.expiresAt) <= new Date() ? { status: 'expired', id: requestId } : { status: 'pending', id: requestId, expiresAt: approval.expiresAt };
    case 'expired':
    case 'superseded':
    case 'cancelled':
      return { status: 'expired', id: requestId };
    default:
      return assertNever(approval.status, 'approval status');
  }
}
