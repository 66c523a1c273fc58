const fencePattern = /^\s*(```|~~~)/;
const horizontalRulePattern = /^\s*([-*_])(\s*\1){2,}\s*$/;
const tableSeparatorPattern = /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/;
const tableRowPattern = /^\s*\|(.*)\|\s*$/;
const inlineCodePattern = /(`+)([\s\S]*?)\1/g;

/** Turns Markdown into readable plain text (WeChat shows no formatting): marks go, words, links and code stay. Pure. */
export function stripMarkdown(text: string): string {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const output: string[] = [];
  let inFence = false;
  for (const line of lines) {
    if (fencePattern.test(line)) {
      inFence = !inFence;
      continue;
    }
    // Code keeps its exact characters: an asterisk in code is not emphasis.
    output.push(inFence ? line : stripLine(line));
  }
  return output
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function stripLine(line: string): string {
  if (horizontalRulePattern.test(line) || tableSeparatorPattern.test(line)) return '';
  const row = tableRowPattern.exec(line);
  if (row) {
    return (row[1] ?? '')
      .split('|')
      .map((cell) => stripInline(cell.trim()))
      .join(' | ');
  }
  const block = line
    .replace(/^(\s*)#{1,6}\s+(.*?)\s*#*\s*$/, '$1$2')
    .replace(/^(\s*)(>\s?)+/, '$1')
    .replace(/^(\s*)[-*+]\s+\[[xX]\]\s+/, '$1☑ ')
    .replace(/^(\s*)[-*+]\s+\[ \]\s+/, '$1☐ ')
    .replace(/^(\s*)[-*+]\s+/, '$1• ');
  return stripInline(block);
}

/** Inline marks, outside inline code spans. */
function stripInline(text: string): string {
  let result = '';
  let last = 0;
  for (const match of text.matchAll(inlineCodePattern)) {
    result += stripEmphasisAndLinks(text.slice(last, match.index));
    result += (match[2] ?? '').trim();
    last = match.index + match[0].length;
  }
  return result + stripEmphasisAndLinks(text.slice(last));
}

function stripEmphasisAndLinks(text: string): string {
  return (
    text
      .replace(/!\[([^\]]*)\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g, (_match, alt: string, url: string) => (alt.trim() === '' ? url : `${alt} (${url})`))
      .replace(/\[([^\]]+)\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g, (_match, label: string, url: string) => (label === url ? url : `${label} (${url})`))
      .replace(/<((?:https?|mailto):[^>\s]+)>/g, '$1')
      .replace(/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, '$2')
      .replace(/~~(?=\S)([\s\S]*?\S)~~/g, '$1')
      // Single `*` or `_` emphasis only at word edges, so snake_case names and 2 * 3 stay as written.
      .replace(/(^|[^\w*])\*(?=\S)([^*\n]*?\S)\*(?![\w*])/g, '$1$2')
      .replace(/(^|[^\w])_(?=\S)([^_\n]*?\S)_(?!\w)/g, '$1$2')
  );
}
