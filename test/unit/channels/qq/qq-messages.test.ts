import { describe, expect, it } from 'vitest';
import type { QqSendFailureReason } from '../../../../channels/qq/classify-send-failure.js';
import { chineseQqMessages, englishQqMessages } from '../../../../channels/qq/qq-messages.js';

describe('QQ channel strings', () => {
  it('say the window of the scene in both languages', () => {
    expect(englishQqMessages.undelivered('reply-window-closed', 'group')).toContain('5 minutes');
    expect(englishQqMessages.undelivered('reply-window-closed', 'c2c')).toContain('60 minutes');
    expect(chineseQqMessages.undelivered('reply-window-closed', 'group')).toContain('5 分钟');
    expect(chineseQqMessages.scheduleLimits('c2c')).toContain('60 分钟');
  });

  it('have a distinct sentence per reason the person can act on, and a fallback for the rest', () => {
    const reasons: QqSendFailureReason[] = ['reply-window-closed', 'reply-limit-reached', 'proactive-refused', 'rejected'];
    for (const messages of [englishQqMessages, chineseQqMessages]) {
      expect(new Set(reasons.map((reason) => messages.undelivered(reason, 'c2c'))).size).toBe(reasons.length);
    }
  });
});
