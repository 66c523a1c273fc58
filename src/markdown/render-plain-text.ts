import type { Root } from 'mdast';
import { parseMarkdown } from './parse-markdown.js';
import { type MarkdownStyle, renderMarkdown } from './render-markdown.js';
import { splitMarkdown } from './split-markdown.js';

const keep = (value: string) => value;

/** Markdown as plain text (WeChat, the terminal): the marks go; words, code, and link addresses stay. */
export const plainTextStyle: MarkdownStyle = {
  text: keep,
  strong: keep,
  emphasis: keep,
  strikethrough: keep,
  inlineCode: keep,
  codeBlock: keep,
  link: (label, url) => (label === '' || label === url || `mailto:${label}` === url ? url : `${label} (${url})`),
  heading: keep,
  quote: keep,
};

/** Renders a parsed answer as plain text. Pure. */
export function renderPlainText(tree: Root): string {
  return renderMarkdown(tree, plainTextStyle);
}

/** The model's Markdown as plain text. Pure. */
export function markdownToPlainText(markdown: string): string {
  return renderPlainText(parseMarkdown(markdown));
}

/** The model's Markdown as plain-text messages of at most `limit` characters, split on node boundaries. Pure. */
export function markdownToPlainMessages(markdown: string, limit: number): string[] {
  const parts = splitMarkdown(parseMarkdown(markdown), (part) => renderPlainText(part).length <= limit);
  return parts.map(renderPlainText).filter((text) => text.trim() !== '');
}
