import { describe, expect, it } from 'vitest';
import type { QqSendFailureReason } from '../../../../channels/qq/classify-send-failure.js';
import { qqStrings } from '../../../../channels/qq/qq-strings.js';

const english = qqStrings.en;
const chinese = qqStrings['zh-CN'];

describe('QQ channel strings', () => {
  it('say the window of the scene in both languages', () => {
    expect(english.qqUndelivered('reply-window-closed', 'group')).toContain('5 minutes');
    expect(english.qqUndelivered('reply-window-closed', 'c2c')).toContain('60 minutes');
    expect(chinese.qqUndelivered('reply-window-closed', 'group')).toContain('5 分钟');
    expect(chinese.qqScheduleLimits('c2c')).toContain('60 分钟');
  });

  it('have a distinct sentence per reason the person can act on, and a fallback for the rest', () => {
    const reasons: QqSendFailureReason[] = ['reply-window-closed', 'reply-limit-reached', 'proactive-refused', 'rejected'];
    for (const messages of [english, chinese]) {
      expect(new Set(reasons.map((reason) => messages.qqUndelivered(reason, 'c2c'))).size).toBe(reasons.length);
    }
  });
});
