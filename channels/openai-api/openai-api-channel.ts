import { assertNever } from '../../src/events/assert-never.js';
import type { Channel, ChannelStatus, Emit } from '../../src/events/channel.js';
import type { Delivery, OutboundEvent } from '../../src/events/outbound-event.js';
import { createSessionKey } from '../../src/events/session-key.js';
import type { HttpRoute } from '../../src/gateway/http-route.js';
import type { Logger } from '../../src/logging/create-logger.js';
import type { Store } from '../../src/store/key-value-namespace.js';
import type { Telemetry } from '../../src/telemetry/telemetry.js';
import { type ApiApproval, createApiApprovals } from './api-approvals.js';
import { createApiKeyring } from './api-keyring.js';
import { createApprovalRoute } from './approval-route.js';
import { createCompletionsRoute } from './completions-route.js';
import { ownerOfConversation } from './conversation-of.js';
import { createDecisionWaiters } from './decision-waiters.js';
import { createLateAnswers } from './late-answers.js';
import { createModelsRoute } from './models-route.js';
import { type Answer, createPendingAnswers } from './pending-answers.js';
import type { OpenaiApiStrings } from './openai-api-strings.js';
import { renderAnswer } from './render-answer.js';

/** The model id GET /v1/models lists when the config names none. */
export const defaultApiModelId = 'echo-agent';

/** What the channel is built from. */
export type OpenaiApiChannelOptions = {
  /** The channel's name, as the core hands it over. */
  readonly name: string;
  readonly keys: readonly { readonly secret: string; readonly user: string }[];
  readonly approvers: readonly string[];
  readonly modelId: string;
  readonly waitTimeoutMs: number;
  readonly bodyLimitBytes: number;
  /** Its own strings, in the channel's locale. */
  readonly strings: OpenaiApiStrings;
  readonly store: Store;
  readonly telemetry: Telemetry;
  readonly logger: Logger;
  readonly now?: () => Date;
};

/** The OpenAI-compatible channel: its routes for the gateway, and the Channel the outbox sends answers to. */
export type OpenaiApiChannel = Channel & { readonly routes: readonly HttpRoute[] };

/**
 * Creates the channel: chat completions, the model list and card decisions on the gateway; answers go to the request
 * waiting for them, else to the conversation's late answers.
 */
export function createOpenaiApiChannel(options: OpenaiApiChannelOptions): OpenaiApiChannel {
  const now = options.now ?? (() => new Date());
  const keyring = createApiKeyring(options.keys);
  const pending = createPendingAnswers();
  const decisions = createDecisionWaiters();
  const lateAnswers = createLateAnswers(options.store.namespace<readonly string[]>(`${options.name}-late-answers`));
  const approvals = createApiApprovals(options.store.namespace<ApiApproval>(`${options.name}-approvals`));
  let emit: Emit | undefined;
  let state: ChannelStatus = { state: 'stopped' };
  let stopListening: (() => void) | undefined;
  const shared = { keyring, emit: () => emit, now, logger: options.logger };
  const routes: HttpRoute[] = [
    createCompletionsRoute({ ...shared, channel: options.name, modelId: options.modelId, bodyLimitBytes: options.bodyLimitBytes, waitTimeoutMs: options.waitTimeoutMs, pending, lateAnswers, strings: options.strings }),
    createModelsRoute({ keyring, modelId: options.modelId, createdAt: now() }),
    createApprovalRoute({ ...shared, channel: options.name, approvals, approvers: options.approvers, decisions }),
  ];

  /** Hands an answer to the request it belongs to, or keeps it for the conversation's next request. */
  async function answer(runId: string | undefined, chatId: string, settled: Answer): Promise<Delivery> {
    const waiting = pending.find(runId, chatId);
    if (waiting !== undefined) {
      pending.settle(waiting, settled);
      return { ok: true };
    }
    await lateAnswers.add(chatId, renderAnswer(settled, options.strings).content);
    return { ok: true };
  }

  async function send(event: OutboundEvent): Promise<Delivery> {
    const chatId = event.target.chatId;
    const runId = 'causationId' in event ? event.causationId : undefined;
    switch (event.type) {
      case 'typing':
        return { ok: true };
      case 'reply': {
        if (event.kind !== 'final') {
          const waiting = pending.find(runId, chatId);
          if (waiting !== undefined) pending.interim(waiting, { kind: event.kind === 'progress' ? 'draft' : 'message', text: event.text });
          // A message nobody waits for is kept; a draft nobody watches is dropped (its final reply follows).
          else if (event.kind === 'message') await lateAnswers.add(chatId, event.text);
          return { ok: true };
        }
        return answer(runId, chatId, { kind: 'reply', text: event.text, ...(event.failure ? { failure: event.failure } : {}) });
      }
      case 'approval-requested': {
        const card = event.approval;
        await approvals.remember({ id: card.approvalId, chatId, sessionKey: createSessionKey({ channel: options.name, chatId }), ownerId: ownerOfConversation(chatId), summary: card.summary, expiresAt: card.expiresAt });
        return answer(runId, chatId, { kind: 'approval', card });
      }
      case 'approval-resolved':
        await approvals.resolved(event.approvalId, event.outcome);
        return { ok: true };
      case 'question-asked':
        return answer(runId, chatId, { kind: 'question', questionId: event.questionId, text: event.text, options: event.options });
      case 'action-answered': {
        const refused = event.isAlert;
        if (event.acknowledgementId !== undefined && decisions.answer(event.acknowledgementId, { kind: 'answered', text: event.text, refused })) return { ok: true };
        // A numbered reply the runtime refused (not an approver, no such card): the answer to the request that sent it.
        return answer(undefined, chatId, { kind: 'reply', text: event.text });
      }
      case 'file': {
        const line = options.strings.apiFileNotCarried({ name: event.fileName, mediaType: event.mediaType, sizeBytes: event.sizeBytes, ...(event.caption ? { caption: event.caption } : {}) });
        const waiting = pending.find(runId, chatId);
        if (waiting !== undefined) pending.interim(waiting, { kind: 'message', text: line });
        else await lateAnswers.add(chatId, line);
        return { ok: true };
      }
      default:
        return assertNever(event, 'outbound event');
    }
  }

  return {
    name: options.name,
    routes,
    async start(nextEmit) {
      emit = nextEmit;
      // A turn that ended without a reply to its request (a card sent to approvers elsewhere, a failure before an answer).
      stopListening = options.telemetry.onTurnFinished((report) => {
        if (!pending.has(report.causationId)) return;
        pending.settle(report.causationId, { kind: 'finished', status: report.status, ...(report.text === undefined ? {} : { text: report.text }) });
      });
      state = { state: 'running', detail: describeRoutes(routes) };
    },
    send,
    async stop() {
      stopListening?.();
      stopListening = undefined;
      pending.clear();
      decisions.clear();
      emit = undefined;
      state = { state: 'stopped' };
    },
    status: () => state,
  };
}

/** The start-up detail: the routes served. */
export function describeRoutes(routes: readonly HttpRoute[]): string {
  return routes.map((route) => `${route.method} ${route.path}${route.matchPrefix ? '<id>' : ''}`).join(', ');
}
