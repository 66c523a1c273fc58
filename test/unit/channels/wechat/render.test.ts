import { describe, expect, it } from 'vitest';
import { renderCard, renderForWechat } from '../../../../channels/wechat/index.js';
import type { ApprovalCard } from '../../../../src/events/approval-card.js';
import { messagesFor } from '../../../../src/i18n/messages.js';
import { withChannelStrings } from '../../../../src/i18n/with-channel-strings.js';
import { wechatStrings } from '../../../../channels/wechat/wechat-strings.js';
import { markdownToPlainMessages, markdownToPlainText as stripMarkdown } from '../../../../src/markdown/render-plain-text.js';
import { splitText as splitMessage } from '../../../../src/markdown/split-text.js';

const zh = withChannelStrings(messagesFor('zh-CN'), wechatStrings);
const en = withChannelStrings(messagesFor('en'), wechatStrings);
const target = { channel: 'wechat', chatId: 'wxid_alice' };
const card: ApprovalCard = {
  approvalId: 'k7m2p9q4r8s3',
  toolName: 'schedule_task',
  summary: 'Every 0 9 * * * (UTC): "Say good morning"',
  argumentsText: '{\n  "schedule": "0 9 * * *",\n  "prompt": "Say good morning"\n}',
  risk: 'write',
  requestedBy: 'Alice',
  expiresAt: '2030-01-02T03:34:00.000Z',
  explanation: 'Creates a daily task that posts here.',
  choices: ['once', 'session', 'always', 'deny'],
};

describe('stripMarkdown', () => {
  it('removes marks and keeps the words, links and code', () => {
    const markdown = [
      '# Plan',
      '',
      'This is **bold**, *italic*, __strong__, _soft_ and ~~gone~~ text with `inline *code*`.',
      '- first',
      '* second',
      '- [x] done',
      '> quoted',
      'See [the docs](https://example.com/docs) and ![chart](https://example.com/c.png).',
      '---',
      '```ts',
      'const a = 2 * 3; // **not bold**',
      '```',
      '| name | value |',
      '| --- | --- |',
      '| **a** | 1 |',
    ].join('\n');
    expect(stripMarkdown(markdown)).toBe(
      [
        'Plan',
        '',
        'This is bold, italic, strong, soft and gone text with inline *code*.',
        '',
        '• first',
        '',
        '• second',
        '',
        '☑ done',
        '',
        // A line right after a quote continues it (CommonMark's lazy continuation).
        'quoted',
        'See the docs (https://example.com/docs) and chart (https://example.com/c.png).',
        '',
        '———',
        '',
        'const a = 2 * 3; // **not bold**',
        '',
        'name | value',
        'a | 1',
      ].join('\n'),
    );
  });

  it('leaves snake_case names and arithmetic alone', () => {
    expect(stripMarkdown('set max_queued_per_session to 2 * 3 * 4')).toBe('set max_queued_per_session to 2 * 3 * 4');
    expect(stripMarkdown('2*3*4 = 24')).toBe('2*3*4 = 24');
  });

  it('splits a long answer between list items, never inside a code block line', () => {
    const markdown = [...Array.from({ length: 30 }, (_, index) => `- item ${index} ${'x'.repeat(40)}`), '', '```', ...Array.from({ length: 30 }, (_, index) => `line ${index} ${'y'.repeat(40)}`), '```'].join('\n');
    const parts = markdownToPlainMessages(markdown, 500);
    expect(parts.length).toBeGreaterThan(4);
    for (const part of parts) {
      expect(part.length).toBeLessThanOrEqual(500);
      for (const line of part.split('\n')) expect(line).toMatch(/^(• item \d+ x{40}|line \d+ y{40})$/);
    }
  });
});

describe('splitMessage', () => {
  it('keeps a short text whole', () => {
    expect(splitMessage('短消息', 2000)).toEqual(['短消息']);
  });

  it('cuts at paragraph breaks and never exceeds the limit', () => {
    const paragraphs = Array.from({ length: 9 }, (_, index) => `${index}:${'字'.repeat(480)}`);
    const parts = splitMessage(paragraphs.join('\n\n'), 2000);
    expect(parts.length).toBe(3);
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(2000);
    expect(parts.join('\n\n')).toBe(paragraphs.join('\n\n'));
    expect(parts[1]?.startsWith('4:')).toBe(true);
  });

  it('falls back to line breaks, then sentence ends, then a hard cut', () => {
    const [l0, l1, l2, l3, l4] = Array.from({ length: 5 }, (_, index) => `${index}${'a'.repeat(90)}`);
    expect(splitMessage([l0, l1, l2, l3, l4].join('\n'), 200)).toEqual([`${l0}\n${l1}`, `${l2}\n${l3}`, l4]);
    const sentences = `${'这是一句话。'.repeat(50)}`;
    const sentenceParts = splitMessage(sentences, 200);
    for (const part of sentenceParts) expect(part.endsWith('。')).toBe(true);
    const solid = 'x'.repeat(450);
    expect(splitMessage(solid, 200).map((part) => part.length)).toEqual([200, 200, 50]);
  });

  it('never splits an emoji in two', () => {
    const text = `${'a'.repeat(199)}😀${'b'.repeat(10)}`;
    const parts = splitMessage(text, 200);
    expect(parts[0]).toBe('a'.repeat(199));
    expect(parts[1]?.startsWith('😀')).toBe(true);
  });
});

describe('renderCard', () => {
  it('shows what, arguments, who, risk, the labelled explanation and the numbered reply with the id', () => {
    const text = renderCard(card, zh, 'Asia/Shanghai');
    expect(text).toContain('【需要批准】编号 k7m2p9q4r8s3');
    expect(text).toContain('操作：Every 0 9 * * * (UTC): "Say good morning"');
    expect(text).toContain('参数：\n{\n  "schedule": "0 9 * * *"');
    expect(text).toContain('请求人：Alice');
    expect(text).toContain('风险：写入');
    expect(text).toContain('助手的说明：Creates a daily task that posts here.');
    expect(text).toContain('过期时间：2030-01-02 11:34 (Asia/Shanghai)');
    expect(text.split('\n').at(-1)).toBe('回复 1 批准一次 · 2 总是允许 · 3 拒绝（编号 k7m2p9q4r8s3）');
  });

  it('says so when "always" is not offered', () => {
    const text = renderCard({ ...card, risk: 'dangerous', choices: ['once', 'session', 'deny'] }, zh);
    expect(text).not.toContain('2 总是允许');
    expect(text).toContain('回复 1 批准一次 · 3 拒绝（编号 k7m2p9q4r8s3）。此操作不提供“总是允许”。');
  });

  it('speaks English when the locale is en', () => {
    expect(renderCard(card, en)).toContain('Reply 1 approve once · 2 always allow · 3 deny (id k7m2p9q4r8s3)');
  });

  it("names a budget card's own choices in the numbered reply", () => {
    const budgetCard = { ...card, choices: ['once', 'deny'] as const, choiceLabels: { once: '今天继续', deny: '停到明天' } };
    expect(renderCard(budgetCard, zh).split('\n').at(-1)).toBe('回复 1 今天继续 · 3 停到明天（编号 k7m2p9q4r8s3）');
  });
});

describe('renderForWechat', () => {
  const options = { messages: zh, splitAt: 2000 };

  it('sends final and standalone replies as plain text, and nothing for drafts and typing', () => {
    expect(renderForWechat({ type: 'reply', target, text: '**好的**，已完成。', kind: 'final' }, options)).toEqual(['好的，已完成。']);
    expect(renderForWechat({ type: 'reply', target, text: '提醒', kind: 'message' }, options)).toEqual(['提醒']);
    expect(renderForWechat({ type: 'reply', target, text: 'draft', kind: 'progress' }, options)).toEqual([]);
    expect(renderForWechat({ type: 'typing', target }, options)).toEqual([]);
  });

  it('splits a long answer at the configured length', () => {
    const parts = renderForWechat({ type: 'reply', target, text: `${'甲'.repeat(300)}\n\n${'乙'.repeat(300)}`, kind: 'final' }, { messages: zh, splitAt: 400 });
    expect(parts).toEqual(['甲'.repeat(300), '乙'.repeat(300)]);
  });

  it('posts the outcome as a follow-up line naming the approval', () => {
    expect(renderForWechat({ type: 'approval-resolved', target, approvalId: 'k7m2', outcome: 'Alice 于 09:00 批准' }, options)).toEqual(['审批 k7m2：Alice 于 09:00 批准']);
  });

  it('numbers the options of a question', () => {
    expect(renderForWechat({ type: 'question-asked', target, questionId: 'q1', text: '哪一个？', options: ['红', '蓝'] }, options)).toEqual(['哪一个？\n1. 红\n2. 蓝\n请回复选项编号。']);
  });

  it('shows refusals as a line, and leaves confirmations to the outcome line', () => {
    expect(renderForWechat({ type: 'action-answered', target, text: zh.onlyApprovers, isAlert: true }, options)).toEqual(['只有审批人可以处理此请求。']);
    expect(renderForWechat({ type: 'action-answered', target, text: 'Alice 于 09:00 批准', isAlert: false }, options)).toEqual([]);
  });

  it('tells a group to @mention the bot with the number, since the bot hears nothing else there', () => {
    const [cardText] = renderForWechat({ type: 'approval-requested', target: { channel: 'wechat', chatId: 'team@chatroom' }, approval: card }, { ...options, inRoom: true });
    expect(cardText?.split('\n').slice(-2)).toEqual(['回复 1 批准一次 · 2 总是允许 · 3 拒绝（编号 k7m2p9q4r8s3）', '在群聊中请 @我 并回复。']);
    const [question] = renderForWechat({ type: 'question-asked', target, questionId: 'q1', text: '哪一个？', options: ['红', '蓝'] }, { ...options, inRoom: true });
    expect(question?.endsWith('请回复选项编号。\n在群聊中请 @我 并回复。')).toBe(true);
  });

  it('renders the card as one message', () => {
    const parts = renderForWechat({ type: 'approval-requested', target, approval: card }, options);
    expect(parts).toHaveLength(1);
    expect(parts[0]).toContain('回复 1 批准一次 · 2 总是允许 · 3 拒绝');
  });
});
