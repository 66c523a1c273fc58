import { describe, expect, it } from 'vitest';
import { qqStrings } from '../../../../channels/qq/qq-strings.js';
import { renderForQq } from '../../../../channels/qq/render-for-qq.js';
import type { ApprovalCard } from '../../../../src/events/approval-card.js';
import { messagesFor } from '../../../../src/i18n/messages.js';
import { withChannelStrings } from '../../../../src/i18n/with-channel-strings.js';

const card: ApprovalCard = {
  approvalId: 'k7m2p9q4',
  toolName: 'schedule_task',
  summary: 'Every 0 9 * * * (UTC): "Water the plants"',
  argumentsText: '{"schedule":"0 9 * * *"}',
  risk: 'write',
  requestedBy: 'E4F4',
  expiresAt: '2026-01-01T12:00:00.000Z',
  explanation: 'A reminder.',
  choices: ['once', 'always', 'deny'],
};
const target = { channel: 'qq', chatId: 'group:G1' };

describe('QQ rendering', () => {
  it('renders a schedule card with numbered replies and the group reply window, in both languages', () => {
    const english = renderForQq({ type: 'approval-requested', target, approval: card }, { messages: withChannelStrings(messagesFor('en'), qqStrings), messageChars: 2000, scene: 'group' });
    expect(english).toHaveLength(1);
    expect(english[0]).toContain('Reply 1 approve once');
    expect(english[0]).toContain('5 minutes');
    const chinese = renderForQq({ type: 'approval-requested', target, approval: { ...card, toolName: 'exec', choices: ['once', 'deny'] } }, { messages: withChannelStrings(messagesFor('zh-CN'), qqStrings), messageChars: 2000, scene: 'group' });
    expect(chinese[0]).toContain('回复 1 批准一次 · 3 拒绝');
    expect(chinese[0]).not.toContain('QQ 已不再投递');
  });

  it('sends nothing for drafts and typing, and says a file was not sent', () => {
    const options = { messages: withChannelStrings(messagesFor('en'), qqStrings), messageChars: 2000, scene: 'c2c' as const };
    expect(renderForQq({ type: 'reply', target, text: 'draft', kind: 'progress' }, options)).toEqual([]);
    expect(renderForQq({ type: 'typing', target }, options)).toEqual([]);
    expect(renderForQq({ type: 'file', target, path: '/w/a.pdf', fileName: 'a.pdf', mediaType: 'application/pdf', sizeBytes: 3 }, options)[0]).toContain('a.pdf was not sent');
    expect(renderForQq({ type: 'reply', target, text: 'x'.repeat(2500), kind: 'final' }, options)).toHaveLength(2);
  });
});
