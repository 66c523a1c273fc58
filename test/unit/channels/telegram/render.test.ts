import { describe, expect, it } from 'vitest';
import { htmlToPlainText } from '../../../../channels/telegram/escape-html.js';
import { renderApprovalCard, renderQuestion, renderReply, renderResolvedCard } from '../../../../channels/telegram/render.js';
import { markdownToTelegramMessages, renderTelegramHtml } from '../../../../channels/telegram/render-telegram-html.js';
import type { ApprovalCard } from '../../../../src/events/approval-card.js';
import { messagesFor } from '../../../../src/i18n/messages.js';
import { withChannelStrings } from '../../../../src/i18n/with-channel-strings.js';
import { telegramStrings } from '../../../../channels/telegram/telegram-strings.js';
import { parseMarkdown } from '../../../../src/markdown/parse-markdown.js';

const messages = withChannelStrings(messagesFor('en'), telegramStrings);
const markdownToTelegramHtml = (markdown: string) => renderTelegramHtml(parseMarkdown(markdown));

/** Throws unless every tag is closed in order and no `<`, `>` or bare `&` is left in the text. */
function assertWellFormed(html: string): void {
  const stack: string[] = [];
  for (const match of html.matchAll(/<(\/?)([a-z-]+)(?:\s[^>]*)?>/g)) {
    if (match[1] === '') stack.push(match[2] ?? '');
    else if (stack.pop() !== match[2]) throw new Error(`crossed or stray </${match[2]}> in ${html.slice(0, 200)}`);
  }
  if (stack.length > 0) throw new Error(`unclosed <${stack.join('>, <')}>`);
  const text = html.replace(/<[^>]*>/g, '');
  if (/[<>]|&(?!(?:amp|lt|gt|quot|#\d+);)/.test(text)) throw new Error(`unescaped character in ${text.slice(0, 200)}`);
}

const card: ApprovalCard = {
  approvalId: 'k3m9x2p4q7rs',
  toolName: 'schedule_task',
  summary: 'Every 0 9 * * *: "Water <the> plants & herbs"',
  argumentsText: '{\n  "schedule": "0 9 * * *"\n}',
  risk: 'write',
  requestedBy: '@alice',
  expiresAt: '2030-01-01T10:30:00.000Z',
  explanation: 'It creates a recurring job.',
  choices: ['once', 'session', 'always', 'deny'],
};

describe('markdown to Telegram HTML', () => {
  it('converts bold, italic, strikethrough, code, code blocks, links, headings, quotes and bullets', () => {
    expect(markdownToTelegramHtml('**bold** and *italic* and _also_ and ~~gone~~')).toBe('<b>bold</b> and <i>italic</i> and <i>also</i> and <s>gone</s>');
    expect(markdownToTelegramHtml('run `a < b && c`')).toBe('run <code>a &lt; b &amp;&amp; c</code>');
    expect(markdownToTelegramHtml('```ts\nconst x = a<b>c;\n```')).toBe('<pre><code class="language-ts">const x = a&lt;b&gt;c;</code></pre>');
    expect(markdownToTelegramHtml('[docs](https://example.com/?a=1&b="2")')).toBe('<a href="https://example.com/?a=1&amp;b=&quot;2&quot;">docs</a>');
    expect(markdownToTelegramHtml('## Plan **now**\n> quoted *line*\n- first\n- second')).toBe('<b>Plan now</b>\n\n<blockquote>quoted <i>line</i></blockquote>\n\n• first\n• second');
    expect(markdownToTelegramHtml('1. one\n2. two\n   - nested\n3. three\n\n- [x] done\n- [ ] todo')).toBe('1. one\n2. two\n  • nested\n3. three\n\n☑ done\n☐ todo');
  });

  it('escapes everything else and never produces a crossed or unclosed tag', () => {
    expect(markdownToTelegramHtml('<script>alert("x")</script> & co')).toBe('&lt;script&gt;alert("x")&lt;/script&gt; &amp; co');
    expect(markdownToTelegramHtml('snake_case_name and 2*3*4 = 24')).toBe('snake_case_name and 2*3*4 = 24');
    expect(markdownToTelegramHtml('a *real* emphasis and x*y*z')).toBe('a <i>real</i> emphasis and x*y*z');
    expect(markdownToTelegramHtml('[bad](javascript:alert(1))')).toBe('bad (javascript:alert(1))');
    for (const input of ['**a *b** c*', '*a **b* c**', '**unclosed', '`open code', '~~a **b~~ c**', '***', '_a *b_ c*', '```\nno end']) {
      expect(() => assertWellFormed(markdownToTelegramHtml(input)), input).not.toThrow();
    }
  });
});

describe('splitting long messages', () => {
  it('splits a 6000-character answer into two parts at a line boundary', () => {
    const lines = Array.from({ length: 60 }, (_, index) => `line ${String(index).padStart(2, '0')} ${'y'.repeat(91)}`);
    const parts = renderReply(lines.join('\n'));
    expect(parts).toHaveLength(2);
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(4096);
    expect(parts.join('\n')).toBe(lines.join('\n'));
    expect(lines).toContain(parts[0]?.split('\n').at(-1));
  });

  it('splits on node boundaries: whole blocks, then lines of a code block, each part well-formed', () => {
    const markdown = `**${'word '.repeat(30).trim()}**\n\n\`\`\`js\n${'const value = 1;\n'.repeat(20)}\`\`\``;
    const parts = markdownToTelegramMessages(markdown, 200);
    expect(parts.length).toBeGreaterThan(2);
    for (const part of parts) {
      expect(part.length).toBeLessThanOrEqual(200);
      expect(() => assertWellFormed(part), part).not.toThrow();
    }
    expect(parts[0]).toBe(`<b>${'word '.repeat(30).trim()}</b>`);
    for (const part of parts.slice(1)) expect(part).toMatch(/^<pre><code class="language-js">(const value = 1;\n)*const value = 1;<\/code><\/pre>$/);
    expect(htmlToPlainText(parts.join('')).replace(/\s+/g, '')).toBe(htmlToPlainText(markdownToTelegramHtml(markdown)).replace(/\s+/g, ''));
  });

  it('splits a long bold run into parts that each open and close their own tag', () => {
    const parts = markdownToTelegramMessages(`**${'bold words '.repeat(40).trim()}**`, 120);
    expect(parts.length).toBeGreaterThan(3);
    for (const part of parts) {
      expect(part.length).toBeLessThanOrEqual(120);
      expect(part).toMatch(/^<b>[a-z ]+<\/b>$/);
    }
  });

  it('never cuts inside an entity, and cuts a line with no spaces anywhere between characters', () => {
    const parts = markdownToTelegramMessages('&'.repeat(100), 52);
    for (const part of parts) expect(part).toMatch(/^(&amp;)+$/);
    expect(parts.join('')).toBe('&amp;'.repeat(100));
    expect(markdownToTelegramMessages('z'.repeat(250), 100).map((part) => part.length)).toEqual([100, 100, 50]);
  });
});

describe('approval cards and questions', () => {
  it('renders the card with escaped text and Approve, Always, session and Deny buttons', () => {
    const rendered = renderApprovalCard(card, messages, 'Europe/Paris');
    expect(() => assertWellFormed(rendered.html)).not.toThrow();
    expect(rendered.html).toContain('Water &lt;the&gt; plants &amp; herbs');
    expect(rendered.html).toContain('11:30 (Europe/Paris)');
    expect(rendered.html).toContain("Assistant's explanation");
    expect(rendered.keyboard?.inline_keyboard.map((row) => row.map((button) => button.callback_data))).toEqual([
      ['e1:a:k3m9x2p4q7rs:o', 'e1:a:k3m9x2p4q7rs:a'],
      ['e1:a:k3m9x2p4q7rs:s'],
      ['e1:a:k3m9x2p4q7rs:d'],
    ]);
  });

  it('offers no Always button when the card does not (dangerous actions)', () => {
    const rendered = renderApprovalCard({ ...card, risk: 'dangerous', choices: ['once', 'session', 'deny'] }, messages, 'UTC');
    const labels = rendered.keyboard?.inline_keyboard.flat().map((button) => button.text);
    expect(labels).toEqual(['✅ Approve', 'Allow for this chat', '❌ Deny']);
  });

  it('keeps a card with huge arguments within one message', () => {
    const rendered = renderApprovalCard({ ...card, argumentsText: '<&>'.repeat(5000) }, messages, 'UTC');
    expect(rendered.html.length).toBeLessThanOrEqual(4096 - 250);
    expect(() => assertWellFormed(rendered.html)).not.toThrow();
  });

  it('appends the outcome line to a settled card', () => {
    expect(renderResolvedCard('<b>card</b>', 'Approved by @alice at 10:02')).toBe('<b>card</b>\n\n<b>Approved by @alice at 10:02</b>');
    expect(renderResolvedCard(undefined, 'Expired <soon>')).toBe('<b>Expired &lt;soon&gt;</b>');
  });

  it('renders question options as one button each, carrying the option index', () => {
    const question = renderQuestion('q1', 'Tea or <coffee>?', ['Tea', 'Coffee']);
    expect(question.html).toBe('Tea or &lt;coffee&gt;?');
    expect(question.keyboard?.inline_keyboard).toEqual([[{ text: 'Tea', callback_data: 'e1:q:q1:0' }], [{ text: 'Coffee', callback_data: 'e1:q:q1:1' }]]);
  });
});
