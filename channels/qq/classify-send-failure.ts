/** Why QQ did not take a message. */
export type QqSendFailureReason =
  /** The message replied to is older than the passive-reply window. */
  | 'reply-window-closed'
  /** The message replied to was answered the allowed number of times. */
  | 'reply-limit-reached'
  /** The `msg_id` is unknown to QQ or belongs to another chat. */
  | 'reply-target-invalid'
  /** A send without `msg_id` (proactive): QQ no longer delivers these. */
  | 'proactive-refused'
  /** This `msg_id` + `msg_seq` was sent before: an earlier attempt got through. */
  | 'duplicate'
  | 'token-refused'
  | 'rate-limited'
  | 'platform-error'
  | 'unreachable'
  | 'rejected';

/** A classified refusal: whether trying again later can help. */
export type ClassifiedSendFailure = { readonly reason: QqSendFailureReason; readonly retryable: boolean };

// Codes from openapi/error/error.md and send.md, and (marked) codes QQ is seen to answer that the docs do not list.
const byCode: Readonly<Record<number, QqSendFailureReason>> = {
  304027: 'reply-window-closed', // MSG_EXPIRE
  304026: 'reply-target-invalid', // MSG_ID
  40034024: 'reply-target-invalid', // not in the docs: "请求参数msg_id无效或越权"
  22009: 'reply-limit-reached', // msg limit exceed
  40034102: 'proactive-refused', // not in the docs: "主动消息失败, 无权限"
  40034105: 'proactive-refused', // not in the docs: same message
  304045: 'proactive-refused',
  304049: 'proactive-refused',
  304050: 'proactive-refused',
  40054005: 'duplicate', // not in the docs: msg_seq seen before
  11241: 'token-refused',
  11242: 'token-refused',
  11243: 'token-refused',
  11244: 'token-refused',
};

/** Classifies a refused send from the HTTP status and the body's `code`. Pure. */
export function classifySendFailure(input: { readonly status: number; readonly code?: number; readonly isReply: boolean }): ClassifiedSendFailure {
  const known = input.code === undefined ? undefined : byCode[input.code];
  if (known === 'reply-limit-reached' && !input.isReply) return { reason: 'rate-limited', retryable: true };
  if (known === 'token-refused') return { reason: known, retryable: true };
  if (known !== undefined) return { reason: known, retryable: false };
  if (input.status === 401) return { reason: 'token-refused', retryable: true };
  if (input.status === 429) return { reason: 'rate-limited', retryable: true };
  if (input.status >= 500) return { reason: 'platform-error', retryable: true };
  return { reason: 'rejected', retryable: false };
}
