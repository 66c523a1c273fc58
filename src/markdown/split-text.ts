const paragraphBreak = /\n\s*\n/g;
const lineBreak = /\n/g;
const sentenceEnd = /[。！？；]|[.!?;](?=\s)/g;
const whitespace = /\s/g;

/**
 * Splits plain text into parts of at most `limit` characters, cutting at the last paragraph break,
 * else line break, else sentence end, else space in the second half of each window; a hard cut only
 * when none exists (never inside a surrogate pair). Pure.
 */
export function splitText(text: string, limit: number): string[] {
  const parts: string[] = [];
  let rest = text.trim();
  while (rest.length > limit) {
    const cut = findTextCut(rest, limit);
    const part = rest.slice(0, cut).trimEnd();
    if (part !== '') parts.push(part);
    rest = rest.slice(cut).trimStart();
  }
  if (rest !== '') parts.push(rest);
  return parts;
}

/** Where to cut `text` so that the first part has at most `limit` characters, by the preferences of `splitText`. Pure. */
export function findTextCut(text: string, limit: number): number {
  if (text.length <= limit) return text.length;
  const window = text.slice(0, limit + 1);
  const half = Math.floor(limit / 2);
  for (const pattern of [paragraphBreak, lineBreak, sentenceEnd, whitespace]) {
    const end = lastMatchEnd(window, pattern, limit);
    if (end !== undefined && end >= half) return end;
  }
  for (const pattern of [paragraphBreak, lineBreak]) {
    const end = lastMatchEnd(window, pattern, limit);
    if (end !== undefined && end > 0) return end;
  }
  const code = text.charCodeAt(limit - 1);
  // A high surrogate at the edge would be split from its pair: cut one earlier.
  return Math.max(1, code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit);
}

/** Where the last match that ends within `limit` ends; a break's own characters stay with the earlier part. */
function lastMatchEnd(window: string, pattern: RegExp, limit: number): number | undefined {
  let found: number | undefined;
  for (const match of window.matchAll(pattern)) {
    const end = match.index + match[0].length;
    if (end <= limit) found = end;
  }
  return found;
}
