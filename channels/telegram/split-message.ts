import { htmlToPlainText } from './escape-html.js';

/** The longest text Telegram accepts in one message. */
export const telegramMessageLimit = 4096;

type Atom = { readonly kind: 'open' | 'close' | 'text'; readonly text: string; readonly name?: string };
type OpenTag = { readonly name: string; readonly text: string };
type BreakKind = 'paragraph' | 'line' | 'space';

// A tag, an entity or one character: the units a split may fall between (never inside a tag or an entity).
const atomPattern = /<\/?([a-z][a-z0-9-]*)(?:\s[^>]*)?>|&(?:[a-z]+|#\d+);|[\s\S]/gi;

/**
 * Splits Telegram HTML into messages of at most `limit` characters (markup included, so the text
 * Telegram counts is shorter still), at a paragraph break, else a line break, else a space, else
 * anywhere between characters; never inside a tag or entity. Tags open at a cut are closed at the
 * end of one part and reopened at the start of the next. Blank parts are dropped. Pure.
 */
export function splitTelegramHtml(html: string, limit = telegramMessageLimit): string[] {
  const atoms = tokenize(html);
  const parts: string[] = [];
  let open: OpenTag[] = [];
  let position = 0;
  while (position < atoms.length) {
    while (position < atoms.length && atoms[position]?.kind === 'text' && /^\s$/.test(atoms[position]?.text ?? '')) position += 1;
    if (position >= atoms.length) break;
    const prefix = open.map((tag) => tag.text).join('');
    const cut = findCut(atoms, position, open, limit - prefix.length);
    const stack = [...open];
    let body = '';
    for (let index = position; index < cut; index += 1) {
      const atom = atoms[index] as Atom;
      applyAtom(stack, atom);
      body += atom.text;
    }
    const closers = [...stack].reverse().map((tag) => `</${tag.name}>`).join('');
    const part = `${prefix}${body.replace(/\s+$/, '')}${closers}`;
    if (htmlToPlainText(part).trim() !== '') parts.push(part);
    open = stack;
    position = cut;
  }
  return parts;
}

function findCut(atoms: readonly Atom[], start: number, open: readonly OpenTag[], budget: number): number {
  const stack = [...open];
  let length = 0;
  let closersLength = open.reduce((sum, tag) => sum + tag.name.length + 3, 0);
  let end = start;
  const breaks: Partial<Record<BreakKind, number>> = {};
  while (end < atoms.length) {
    const atom = atoms[end] as Atom;
    const before = stack.length;
    applyAtom(stack, atom);
    if (stack.length > before) closersLength += (stack.at(-1)?.name.length ?? 0) + 3;
    if (stack.length < before) closersLength -= (atom.name?.length ?? 0) + 3;
    if (length + atom.text.length + closersLength > budget && end > start) break;
    length += atom.text.length;
    end += 1;
    if (atom.text === '\n') breaks[atoms[end - 2]?.text === '\n' ? 'paragraph' : 'line'] = end;
    else if (atom.text === ' ') breaks.space = end;
  }
  if (end >= atoms.length) return atoms.length;
  // A break in the first half of the window would leave a tiny part: prefer a later, weaker one.
  const halfway = start + (end - start) / 2;
  for (const kind of ['paragraph', 'line', 'space'] as const) {
    const at = breaks[kind];
    if (at !== undefined && at > halfway) return at;
  }
  return breaks.paragraph ?? breaks.line ?? breaks.space ?? end;
}

function applyAtom(stack: OpenTag[], atom: Atom): void {
  if (atom.kind === 'open' && atom.name !== undefined) stack.push({ name: atom.name, text: atom.text });
  else if (atom.kind === 'close') {
    const index = stack.findLastIndex((tag) => tag.name === atom.name);
    if (index !== -1) stack.splice(index, 1);
  }
}

function tokenize(html: string): Atom[] {
  const atoms: Atom[] = [];
  for (const match of html.matchAll(atomPattern)) {
    const text = match[0];
    const name = match[1]?.toLowerCase();
    if (name === undefined) atoms.push({ kind: 'text', text });
    else atoms.push({ kind: text.startsWith('</') ? 'close' : 'open', text, name });
  }
  return atoms;
}
