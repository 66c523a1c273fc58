import { describe, expect, it } from 'vitest';
import type { Risk } from '../../../src/events/risk.js';
import { telegramStrings } from '../../../channels/telegram/telegram-strings.js';
import { wechatStrings } from '../../../channels/wechat/wechat-strings.js';
import { messagesFor } from '../../../src/i18n/messages.js';
import { withChannelStrings } from '../../../src/i18n/with-channel-strings.js';

const failureKinds = ['rate-limited', 'auth', 'network', 'timeout', 'server', 'bad-request'];
const risks: readonly Risk[] = ['read_only', 'write', 'exec', 'dangerous'];

describe('the message catalogue', () => {
  it('says why the model failed in the reader\'s language, with no English inside the Chinese text', () => {
    const zh = messagesFor('zh-CN');
    // "API" is the one Latin word a Chinese reader sees as is.
    for (const kind of failureKinds) expect(zh.modelUnavailable(kind).replace('API', ''), kind).not.toMatch(/[A-Za-z]/);
    expect(messagesFor('en').modelUnavailable('rate-limited')).toBe('I could not reach the model (it is rate limiting us). Please try again in a moment.');
  });

  it('names every risk level in both languages', () => {
    for (const risk of risks) {
      expect(messagesFor('zh-CN').riskLevel(risk)).not.toMatch(/[A-Za-z_]/);
      expect(messagesFor('en').riskLevel(risk)).not.toContain('_');
    }
  });

  it('speaks of budgets in Chinese without English words (ids and amounts are passed in)', () => {
    const zh = messagesFor('zh-CN').budget;
    const words = { scope: 'chat', id: '1', period: 'daily' } as const;
    const texts = [
      zh.softLimitQuestion(words, 80, '1 / 2'),
      zh.softLimitExplanation,
      zh.continueLabel('daily'),
      zh.stopLabel('monthly'),
      zh.limitReached({ ...words, scope: 'user' }, '1 / 2', '2026-01-01 00:00'),
      zh.stoppedUntilReset({ ...words, scope: 'global', period: 'monthly' }, '2026-01-01'),
      zh.notContinued,
      zh.turnCeiling('modelCalls', '25'),
      zh.turnCeiling('tokens', '25'),
      zh.budgetOnlyApprovers,
      zh.unpriced('3'),
    ];
    for (const text of texts) expect(text).not.toMatch(/[A-Za-z]/);
  });

  it("gives a channel the core catalogue and its own strings, both in the locale it was handed", () => {
    const zh = withChannelStrings(messagesFor('zh-CN'), wechatStrings);
    expect(zh.locale).toBe('zh-CN');
    expect(zh.busy).toBe(messagesFor('zh-CN').busy);
    expect(zh.wechatOutcomeLine('a1', '已批准')).toBe('审批 a1：已批准');
    expect(withChannelStrings(messagesFor('en'), wechatStrings).wechatOutcomeLine('a1', 'approved')).toBe('Approval a1: approved');
    const telegramZh = withChannelStrings(messagesFor('zh-CN'), telegramStrings);
    for (const description of Object.values(telegramZh.telegramCommands)) expect(description.replace(/\/\w+ <id>/, '')).not.toMatch(/[A-Za-z]/);
  });
});
