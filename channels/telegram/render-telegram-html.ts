import type { Root } from 'mdast';
import { parseMarkdown } from '../../src/markdown/parse-markdown.js';
import { type MarkdownStyle, renderMarkdown } from '../../src/markdown/render-markdown.js';
import { splitMarkdown } from '../../src/markdown/split-markdown.js';
import { escapeAttribute, escapeHtml } from './escape-html.js';
import { telegramMessageLimit } from './telegram-limits.js';

export { telegramMessageLimit } from './telegram-limits.js';

const safeLink = /^(?:https?:\/\/|tg:\/\/|mailto:)/i;

/** Markdown in Telegram's HTML subset: b, i, s, code, pre, a (http, https, tg, mailto only), blockquote; everything else escaped. */
export const telegramMarkdownStyle: MarkdownStyle = {
  text: escapeHtml,
  strong: (inner) => `<b>${inner}</b>`,
  emphasis: (inner) => `<i>${inner}</i>`,
  strikethrough: (inner) => `<s>${inner}</s>`,
  inlineCode: (value) => `<code>${escapeHtml(value)}</code>`,
  codeBlock: (value, language) => (language ? `<pre><code class="language-${escapeAttribute(language)}">${escapeHtml(value)}</code></pre>` : `<pre>${escapeHtml(value)}</pre>`),
  link: (label, url) => (safeLink.test(url) ? `<a href="${escapeAttribute(url)}">${label === '' ? escapeHtml(url) : label}</a>` : `${label} (${escapeHtml(url)})`),
  heading: (inner) => `<b>${inner}</b>`,
  quote: (inner) => `<blockquote>${inner}</blockquote>`,
};

/** Renders a parsed answer as Telegram HTML. Pure. */
export function renderTelegramHtml(tree: Root): string {
  return renderMarkdown(tree, telegramMarkdownStyle);
}

/** The model's Markdown as Telegram HTML messages, each within `limit` characters of markup, split on node boundaries. Pure. */
export function markdownToTelegramMessages(markdown: string, limit = telegramMessageLimit): string[] {
  const parts = splitMarkdown(parseMarkdown(markdown), (part) => renderTelegramHtml(part).length <= limit);
  return parts.map(renderTelegramHtml).filter((html) => html.trim() !== '');
}
