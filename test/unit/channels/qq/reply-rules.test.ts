import { describe, expect, it } from 'vitest';
import { classifySendFailure } from '../../../../channels/qq/classify-send-failure.js';
import { gatewayCloseAction } from '../../../../channels/qq/gateway-close-action.js';
import { parseQqChatId, toQqChatId } from '../../../../channels/qq/qq-chat-id.js';
import { checkReply } from '../../../../channels/qq/reply-rules.js';

const sentAt = new Date('2025-01-01T00:00:00Z');
const minutesLater = (minutes: number) => new Date(sentAt.getTime() + minutes * 60_000);

describe('QQ passive-reply rules', () => {
  it('accepts replies within 60 minutes in private chats and 5 in groups, at most 5 per message', () => {
    expect(checkReply({ scene: 'c2c', sentAt, now: minutesLater(59), repliesSent: 4 })).toEqual({ ok: true });
    expect(checkReply({ scene: 'c2c', sentAt, now: minutesLater(61), repliesSent: 0 })).toEqual({ ok: false, reason: 'reply-window-closed' });
    expect(checkReply({ scene: 'group', sentAt, now: minutesLater(4), repliesSent: 0 })).toEqual({ ok: true });
    expect(checkReply({ scene: 'group', sentAt, now: minutesLater(6), repliesSent: 0 })).toEqual({ ok: false, reason: 'reply-window-closed' });
    expect(checkReply({ scene: 'group', sentAt, now: minutesLater(1), repliesSent: 5 })).toEqual({ ok: false, reason: 'reply-limit-reached' });
  });

  it('classifies QQ refusals by code first, then by status', () => {
    expect(classifySendFailure({ status: 400, code: 304027, isReply: true })).toEqual({ reason: 'reply-window-closed', retryable: false });
    expect(classifySendFailure({ status: 400, code: 22009, isReply: true })).toEqual({ reason: 'reply-limit-reached', retryable: false });
    expect(classifySendFailure({ status: 400, code: 22009, isReply: false })).toEqual({ reason: 'rate-limited', retryable: true });
    expect(classifySendFailure({ status: 400, code: 40034102, isReply: false })).toEqual({ reason: 'proactive-refused', retryable: false });
    expect(classifySendFailure({ status: 400, code: 40034024, isReply: true })).toEqual({ reason: 'reply-target-invalid', retryable: false });
    expect(classifySendFailure({ status: 401, isReply: true })).toEqual({ reason: 'token-refused', retryable: true });
    expect(classifySendFailure({ status: 503, isReply: true })).toEqual({ reason: 'platform-error', retryable: true });
    expect(classifySendFailure({ status: 400, code: 1, isReply: true })).toEqual({ reason: 'rejected', retryable: false });
  });

  it('decides after a gateway close: resume, identify again, or stop (error-trace/websocket.md)', () => {
    expect(gatewayCloseAction(4009)).toBe('resume');
    expect(gatewayCloseAction(1006)).toBe('resume');
    expect(gatewayCloseAction(4006)).toBe('identify');
    expect(gatewayCloseAction(4903)).toBe('identify');
    expect(gatewayCloseAction(4914)).toBe('stop');
    expect(gatewayCloseAction(4013)).toBe('stop');
  });

  it('round-trips chat ids and refuses ones it did not make', () => {
    expect(parseQqChatId(toQqChatId({ scene: 'c2c', openid: 'E4F4' }))).toEqual({ scene: 'c2c', openid: 'E4F4' });
    expect(parseQqChatId(toQqChatId({ scene: 'group', groupOpenid: 'C9F7' }))).toEqual({ scene: 'group', groupOpenid: 'C9F7' });
    expect(parseQqChatId('group:../../x')).toBeUndefined();
    expect(parseQqChatId('12345')).toBeUndefined();
  });
});
