import { z } from 'zod';
import type { AccessTokenClient } from './access-token-client.js';
import { classifySendFailure, type QqSendFailureReason } from './classify-send-failure.js';
import type { ReplySequence } from './create-shared-reply-sequence.js';
import { checkReply, qqReplyRules } from './reply-rules.js';


/** Where a message goes: a person's private chat or a group, by their openids. */
export type QqTarget = { readonly scene: 'c2c'; readonly openid: string } | { readonly scene: 'group'; readonly groupOpenid: string };

/** One text message to send. */
export type QqSendRequest = {
  readonly target: QqTarget;
  readonly content: string;
  /** The person's message this answers: without it the send is proactive, which QQ refuses. */
  readonly replyTo?: { readonly messageId: string; readonly sentAt: Date };
  /** For a retry after `unreachable`: the `msg_seq` that attempt used, so QQ drops it if the first got through. */
  readonly msgSeq?: number;
};

/** What became of a send: delivered, or refused with a reason the channel reports to the person honestly. */
export type QqDelivery =
  | { readonly ok: true; readonly messageId?: string; readonly msgSeq?: number; readonly duplicate?: boolean }
  | { readonly ok: false; readonly reason: QqSendFailureReason; readonly retryable: boolean; readonly message: string; readonly code?: number; readonly msgSeq?: number };

/** Sends text to QQ as passive replies, numbering the replies to each message (`msg_seq`). */
export type QqSender = { send(request: QqSendRequest): Promise<QqDelivery> };

/** What the sender needs. */
export type QqSenderOptions = {
  readonly apiRoot: string;
  readonly tokens: AccessTokenClient;
  readonly fetch?: typeof fetch;
  readonly now?: () => Date;
  /** The docs advise at least 5 s, or a message that went through may be reported as lost. */
  readonly timeoutMs?: number;
  /** Numbers the replies to a message across instances (cluster mode); absent: counted in this process. */
  readonly replySequence?: ReplySequence;
};

const answerSchema = z.object({ id: z.string().optional(), code: z.number().optional(), message: z.string().max(512).optional() }).passthrough();
const trackedMessages = 5000;

/** Creates the sender. Replies per message are counted in memory (bounded); QQ's own refusals are the final word. */
export function createQqSender(options: QqSenderOptions): QqSender {
  const fetchImpl = options.fetch ?? fetch;
  const now = options.now ?? (() => new Date());
  const replies = new Map<string, { reserved: number; accepted: number }>();

  const counterOf = (messageId: string) => {
    const counter = replies.get(messageId) ?? { reserved: 0, accepted: 0 };
    replies.delete(messageId);
    replies.set(messageId, counter);
    const oldest = replies.keys().next().value;
    if (replies.size > trackedMessages && oldest !== undefined) replies.delete(oldest);
    return counter;
  };

  // The shared count where instances share the replies (cluster mode), else this process's own.
  const reserveSeq = (messageId: string, counter: { reserved: number }) => options.replySequence?.(messageId) ?? { ok: true as const, msgSeq: ++counter.reserved };

  const post = async (request: QqSendRequest, msgSeq: number | undefined, retried: boolean): Promise<QqDelivery> => {
    const token = await options.tokens.get();
    if (!token.ok) return { ok: false, reason: token.code === 'credentials-refused' ? 'token-refused' : 'unreachable', retryable: token.code !== 'credentials-refused', message: token.message };
    const path = request.target.scene === 'c2c' ? `/v2/users/${encodeURIComponent(request.target.openid)}/messages` : `/v2/groups/${encodeURIComponent(request.target.groupOpenid)}/messages`;
    const body = { content: request.content, msg_type: 0, ...(request.replyTo ? { msg_id: request.replyTo.messageId, msg_seq: msgSeq } : {}) };
    let response: Response;
    try {
      response = await fetchImpl(`${options.apiRoot.replace(/\/+$/, '')}${path}`, {
        method: 'POST',
        headers: { authorization: `QQBot ${token.token.value}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      });
    } catch (error) {
      return { ok: false, reason: 'unreachable', retryable: true, message: `QQ did not answer: ${error instanceof Error ? error.message : String(error)}`, ...(msgSeq === undefined ? {} : { msgSeq }) };
    }
    const parsed = answerSchema.safeParse(await response.json().catch(() => undefined));
    const answer = parsed.success ? parsed.data : {};
    // QQ sometimes answers a refusal with HTTP 200 and a code; a success carries the new message's id.
    if (response.ok && (answer.code === undefined || answer.code === 0)) return { ok: true, ...(answer.id === undefined ? {} : { messageId: answer.id }), ...(msgSeq === undefined ? {} : { msgSeq }) };
    const failure = classifySendFailure({ status: response.status, ...(answer.code === undefined ? {} : { code: answer.code }), isReply: request.replyTo !== undefined });
    if (failure.reason === 'duplicate') return { ok: true, duplicate: true, ...(msgSeq === undefined ? {} : { msgSeq }) };
    if (failure.reason === 'token-refused' && !retried) {
      options.tokens.invalidate();
      return post(request, msgSeq, true);
    }
    return {
      ok: false,
      ...failure,
      message: `QQ refused the message (HTTP ${response.status}${answer.code === undefined ? '' : `, code ${answer.code}`}${answer.message ? `: ${answer.message}` : ''}).`,
      ...(answer.code === undefined ? {} : { code: answer.code }),
      ...(msgSeq === undefined ? {} : { msgSeq }),
    };
  };

  return {
    async send(request) {
      if (!request.replyTo) return post(request, undefined, false);
      const counter = counterOf(request.replyTo.messageId);
      const check = checkReply({ scene: request.target.scene, sentAt: request.replyTo.sentAt, now: now(), repliesSent: counter.accepted });
      if (!check.ok) return { ok: false, reason: check.reason, retryable: false, message: `Not sent: ${check.reason === 'reply-window-closed' ? 'the message is older than QQ accepts replies to' : 'the message was already answered as often as QQ allows'}.` };
      // Reserved before the call, so concurrent replies to one message never share a msg_seq.
      const reserved = request.msgSeq !== undefined ? { ok: true as const, msgSeq: request.msgSeq } : await reserveSeq(request.replyTo.messageId, counter);
      if (!reserved.ok) return { ok: false, reason: 'unreachable', retryable: true, message: `Not sent: ${reserved.message}.` };
      const msgSeq = reserved.msgSeq;
      const delivery = await post(request, msgSeq, false);
      if (delivery.ok) counter.accepted += 1;
      else if (delivery.reason === 'reply-limit-reached') counter.accepted = Math.max(counter.accepted, qqReplyRules[request.target.scene].maxReplies);
      return delivery;
    },
  };
}
