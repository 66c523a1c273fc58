import { z } from 'zod';
import type { Emit } from '../../src/events/channel.js';
import { createId } from '../../src/events/create-id.js';
import type { HttpRequest, HttpResponse, HttpRoute } from '../../src/gateway/http-route.js';
import type { Logger } from '../../src/logging/create-logger.js';
import { apiError } from './api-error.js';
import type { ApiApprovals } from './api-approvals.js';
import type { ApiKeyring } from './api-keyring.js';
import type { DecisionWaiters } from './decision-waiters.js';
import { decisionToEvent } from './to-event.js';

/** Decisions are posted below this path: `POST /v1/approvals/<id>`. */
export const approvalsPathPrefix = '/v1/approvals/';

/** How long a decision waits for the runtime to take it (not for the turn to continue). */
const decisionTimeoutMs = 30_000;

const decisionBody = z.object({ decision: z.enum(['approve', 'once', 'session', 'always', 'deny']) });

/** What the decision route is built from. */
export type ApprovalRouteOptions = {
  readonly channel: string;
  readonly keyring: ApiKeyring;
  readonly approvals: ApiApprovals;
  /** User ids that may decide cards raised here; empty: the requester alone. */
  readonly approvers: readonly string[];
  readonly decisions: DecisionWaiters;
  readonly emit: () => Emit | undefined;
  readonly now: () => Date;
  readonly logger: Logger;
};

/**
 * POST /v1/approvals/<id> `{ "decision": "approve" | "deny" | ... }`: bearer key (401) → a card shown here that this
 * key's user may see (404 otherwise: another user's card is not confirmed to exist) → an approver (403) → the body
 * (400) → the decision goes through the runtime like a button press (it checks the approvers again and takes the
 * decision once) → 200 with the outcome, or 409 when the runtime refused it (decided already, expired). The turn then
 * continues in the card's conversation; its answer comes with that conversation's next request.
 */
export function createApprovalRoute(options: ApprovalRouteOptions): HttpRoute {
  return { method: 'POST', path: approvalsPathPrefix, matchPrefix: true, bodyLimitBytes: 16 * 1024, handle };

  async function handle(request: HttpRequest): Promise<HttpResponse> {
    const key = options.keyring.check(request.headers.authorization);
    if (!key.ok) return apiError(401, 'authentication_error', 'invalid_api_key', 'The API key is missing or not valid.', { 'WWW-Authenticate': 'Bearer' });
    const approvalId = request.path.slice(approvalsPathPrefix.length);
    const notFound = apiError(404, 'not_found_error', 'approval_not_found', `No approval ${approvalId.slice(0, 64)} is waiting for you.`);
    if (!/^[a-z0-9]{4,40}$/.test(approvalId)) return notFound;
    const approval = await options.approvals.get(approvalId);
    const isApprover = options.approvers.length === 0 ? approval?.ownerId === key.userId : options.approvers.includes(key.userId);
    if (approval === undefined || (approval.ownerId !== key.userId && !isApprover)) return notFound;
    if (!isApprover) return apiError(403, 'permission_error', 'not_an_approver', 'Only the configured approvers may decide this card.');
    const read = await request.readJson();
    if (!read.ok) return apiError(read.status, 'invalid_request_error', read.code, read.message);
    const parsed = decisionBody.safeParse(read.body);
    if (!parsed.success) return apiError(400, 'invalid_request_error', 'invalid_request', 'Send {"decision": "approve" | "session" | "always" | "deny"}.');
    const choice = parsed.data.decision === 'approve' ? 'once' : parsed.data.decision;

    const emit = options.emit();
    if (!emit) return apiError(503, 'server_error', 'busy', 'The agent is shutting down; retry later.', { 'Retry-After': '5' });
    const requestId = createId();
    const answered = options.decisions.wait(requestId, decisionTimeoutMs);
    const emitted = await emit(decisionToEvent({ channel: options.channel, requestId, chatId: approval.chatId, sessionKey: approval.sessionKey, userId: key.userId, approvalId, choice, now: options.now() }));
    if (!emitted.accepted) {
      options.decisions.answer(requestId, { kind: 'timeout' });
      return apiError(503, 'server_error', emitted.reason === 'unavailable' ? 'store_unavailable' : 'busy', 'The decision could not be queued; nothing changed. Retry later.', { 'Retry-After': '5' });
    }
    options.logger.info({ approvalId, userId: key.userId, choice }, 'approval decision sent over HTTP');
    const answer = await answered;
    if (answer.kind === 'timeout') return { status: 202, body: { id: approvalId, status: 'queued', message: 'The decision is queued; the card shows its outcome once it is taken.' } };
    if (answer.refused) return apiError(409, 'invalid_request_error', 'approval_not_decided', answer.text);
    return { status: 200, body: { id: approvalId, status: choice === 'deny' ? 'denied' : 'approved', outcome: answer.text, conversation: approval.chatId.slice(approval.chatId.indexOf('/') + 1) } };
  }
}
