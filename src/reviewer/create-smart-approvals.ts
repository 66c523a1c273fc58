import { join } from 'node:path';
import type { ApprovalRouteFor } from '../approvals/approval-route.js';
import type { SmartApprovals } from './smart-approvals.js';
import type { Config } from '../config/config-schema.js';
import type { Outbox } from '../events/outbox.js';
import type { Messages } from '../i18n/messages.js';
import type { ModelPort } from '../model/model-port.js';
import type { AuditLog } from '../registry/audit-log.js';
import { createRecentReviews, type RecentReview } from './recent-reviews.js';
import { createSmartPreferences, type SmartPreference } from './smart-preferences.js';
import type { Store } from '../store/key-value-namespace.js';

/** What smart approvals are built from. */
export type SmartApprovalsOptions = {
  readonly config: Config;
  /** The primary model (with its failover): the reviewer's model unless approvals.reviewerModel names one. */
  readonly primaryModel: ModelPort;
  readonly store: Store;
  readonly audit: Pick<AuditLog, 'record'>;
  readonly outbox: Outbox;
  readonly messagesFor: (channel: string) => Messages;
  readonly approvalRouteFor: ApprovalRouteFor;
  readonly now: () => Date;
  /** Builds the reviewer's own model when approvals.reviewerModel names one (the root's model factory). */
  readonly createEndpointModel: (endpoint: NonNullable<Config['approvals']['reviewerModel']>, retries: number) => Promise<{ ok: true; model: ModelPort } | { ok: false; error: string }>;
  /** Wraps the reviewer's own model so its calls are accounted (see create-budgets). */
  readonly meter?: (model: ModelPort) => ModelPort;
};

/** The reviewer (in smart mode only), the people's `/smart` choices and the reviewer's recent decisions, from config. */
export async function createSmartApprovals(options: SmartApprovalsOptions): Promise<{ ok: true; smartApprovals: SmartApprovals } | { ok: false; error: string }> {
  const { config } = options;
  const preferences = createSmartPreferences(options.store.namespace<SmartPreference>('smart-preferences'));
  const recent = createRecentReviews(options.store.namespace<RecentReview[]>('reviewer-decisions'));
  if (config.approvals.mode !== 'smart') return { ok: true, smartApprovals: { mode: config.approvals.mode, preferences, recent } };
  // The reviewer's modules load in smart mode only: manual and off do not pay for them.
  const [{ createApprovalReviewer }, { createCallReviewer }] = await Promise.all([import('./create-approval-reviewer.js'), import('./create-call-reviewer.js')]);
  const endpoint = config.approvals.reviewerModel;
  const own = endpoint ? await options.createEndpointModel(endpoint, 0) : undefined;
  if (own && !own.ok) return { ok: false, error: `approvals.reviewerModel cannot be used: ${own.error}.` };
  const review = createApprovalReviewer({
    model: own ? (options.meter?.(own.model) ?? own.model) : options.primaryModel,
    timeoutMs: config.approvals.reviewerTimeoutMs,
    workspaceDir: config.tools.workspaceDir ?? join(config.storage.dataDir, 'workspace'),
  });
  const reviewCall = createCallReviewer({
    review,
    preferences,
    recent,
    audit: options.audit,
    outbox: options.outbox,
    messagesFor: options.messagesFor,
    notice: config.approvals.reviewerNotice,
    approvalRouteFor: options.approvalRouteFor,
    timezone: config.agent.timezone,
    now: options.now,
  });
  return { ok: true, smartApprovals: { mode: 'smart', reviewCall, preferences, recent } };
}
