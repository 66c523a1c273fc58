import { escapeAttribute, escapeHtml } from './escape-html.js';

type Opener = { readonly marker: string; readonly tag: string; readonly index: number };

const fencePattern = /^\s{0,3}(`{3,}|~{3,})\s*([A-Za-z0-9_+#.-]*)\s*$/;
const headingPattern = /^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$/;
const quotePattern = /^\s{0,3}>\s?(.*)$/;
const bulletPattern = /^(\s*)[-*+]\s+(.*)$/;
const linkPattern = /^\[([^\]\n]+)\]\(([^)\s]+)(?:\s+"[^"\n]*")?\)/;
const safeLink = /^(?:https?:\/\/|tg:\/\/|mailto:)/i;
const escapable = /[\\`*_~[\]()#>!|{}.+-]/;
const wordCharacter = /[\p{L}\p{N}]/u;

/**
 * Converts the Markdown a model writes into Telegram's HTML subset: bold, italic, strikethrough,
 * inline code, fenced code blocks, links (http, https, tg, mailto only), headings as bold, quotes,
 * bullets. Every other character is escaped, so the result is always well-formed. Pure.
 */
export function markdownToTelegramHtml(markdown: string): string {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const output: string[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    const fence = fencePattern.exec(line);
    if (fence) {
      const marker = fence[1] ?? '```';
      const body: string[] = [];
      let next = index + 1;
      while (next < lines.length && !(lines[next] ?? '').trim().startsWith(marker)) {
        body.push(lines[next] ?? '');
        next += 1;
      }
      index = next;
      const language = fence[2] ?? '';
      const code = escapeHtml(body.join('\n'));
      output.push(language === '' ? `<pre>${code}</pre>` : `<pre><code class="language-${escapeAttribute(language)}">${code}</code></pre>`);
      continue;
    }
    if (quotePattern.test(line)) {
      const quoted: string[] = [];
      while (index < lines.length && quotePattern.test(lines[index] ?? '')) {
        quoted.push(inlineMarkdownToHtml(quotePattern.exec(lines[index] ?? '')?.[1] ?? ''));
        index += 1;
      }
      index -= 1;
      output.push(`<blockquote>${quoted.join('\n')}</blockquote>`);
      continue;
    }
    const heading = headingPattern.exec(line);
    if (heading) {
      // The heading is bold already; bold markers inside it would nest <b> in <b>.
      output.push(`<b>${inlineMarkdownToHtml((heading[1] ?? '').replace(/\*\*|__/g, ''))}</b>`);
      continue;
    }
    const bullet = bulletPattern.exec(line);
    if (bullet) {
      output.push(`${bullet[1] ?? ''}• ${inlineMarkdownToHtml(bullet[2] ?? '')}`);
      continue;
    }
    output.push(inlineMarkdownToHtml(line));
  }
  return output.join('\n');
}

/** Converts one line of inline Markdown; unmatched markers stay as literal text, and tags never cross. Pure. */
export function inlineMarkdownToHtml(text: string): string {
  const output: string[] = [];
  const openers: Opener[] = [];
  let position = 0;
  while (position < text.length) {
    const character = text[position] ?? '';
    const following = text[position + 1];
    if (character === '\\' && following !== undefined && escapable.test(following)) {
      output.push(escapeHtml(following));
      position += 2;
      continue;
    }
    if (character === '`') {
      let run = 1;
      while (text[position + run] === '`') run += 1;
      const marker = '`'.repeat(run);
      const close = text.indexOf(marker, position + run);
      if (close > position + run) {
        output.push(`<code>${escapeHtml(text.slice(position + run, close))}</code>`);
        position = close + run;
      } else {
        output.push(escapeHtml(marker));
        position += run;
      }
      continue;
    }
    if (character === '[') {
      const link = linkPattern.exec(text.slice(position));
      if (link) {
        const label = escapeHtml(link[1] ?? '');
        const url = link[2] ?? '';
        output.push(safeLink.test(url) ? `<a href="${escapeAttribute(url)}">${label}</a>` : `${label} (${escapeHtml(url)})`);
        position += link[0].length;
        continue;
      }
    }
    const marker = delimiterAt(text, position);
    if (marker !== undefined) {
      placeDelimiter({ text, position, marker, output, openers });
      position += marker.length;
      continue;
    }
    output.push(escapeHtml(character));
    position += 1;
  }
  return output.join('');
}

function delimiterAt(text: string, position: number): string | undefined {
  for (const marker of ['**', '__', '~~']) if (text.startsWith(marker, position)) return marker;
  const character = text[position];
  return character === '*' || character === '_' ? character : undefined;
}

function tagOf(marker: string): string {
  if (marker === '**' || marker === '__') return 'b';
  return marker === '~~' ? 's' : 'i';
}

function placeDelimiter(input: { text: string; position: number; marker: string; output: string[]; openers: Opener[] }): void {
  const { text, position, marker, output, openers } = input;
  const before = text[position - 1];
  const after = text[position + marker.length];
  const tag = tagOf(marker);
  // Underscores inside words (snake_case) are text, not emphasis.
  const canOpen = after !== undefined && !/\s/.test(after) && !(marker.startsWith('_') && before !== undefined && wordCharacter.test(before));
  const canClose = before !== undefined && !/\s/.test(before) && !(marker.startsWith('_') && after !== undefined && wordCharacter.test(after));
  const openerIndex = openers.findLastIndex((opener) => opener.marker === marker);
  const opener = openerIndex === -1 ? undefined : openers[openerIndex];
  if (canClose && opener && output.length > opener.index + 1) {
    // Openers above the matched one were never closed: they stay literal text, so tags never cross.
    openers.length = openerIndex;
    output[opener.index] = `<${tag}>`;
    output.push(`</${tag}>`);
    return;
  }
  if (canOpen && !openers.some((open) => open.tag === tag)) {
    openers.push({ marker, tag, index: output.length });
  }
  output.push(escapeHtml(marker));
}
