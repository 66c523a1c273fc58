/**
 * A lexer for POSIX shell commands, enough to see which commands a line runs and with which words:
 * quotes, escapes, `$VAR` and `${VAR}`, `~`, command substitution (`$(...)`, backquotes), operators,
 * redirections and here-documents. It does not run anything and expands nothing it cannot know.
 */

/** One piece of a word: literal text (with whether it was quoted), a parameter, or something unknowable. */
export type WordPart =
  | { readonly kind: 'text'; readonly text: string; readonly quoted: boolean }
  | { readonly kind: 'parameter'; readonly name: string; readonly quoted: boolean }
  | { readonly kind: 'tilde' }
  | { readonly kind: 'unknown' };

/** A token: a word (its parts and raw text, plus the scripts of command substitutions inside it) or an operator. */
export type ShellToken =
  | { readonly kind: 'word'; readonly raw: string; readonly parts: readonly WordPart[]; readonly substitutions: readonly string[] }
  | { readonly kind: 'operator'; readonly operator: string };

const operators = ['&&', '||', ';;', '|&', '&>>', '&>', '>>', '>|', '<<<', '<<-', '<<', '<>', '<&', '>&', ';', '&', '|', '(', ')', '<', '>', '\n'];
const wordEnd = new Set([' ', '\t', '\n', ';', '&', '|', '(', ')', '<', '>']);

/** The redirection operators. */
export const redirectionOperators: ReadonlySet<string> = new Set(['>', '>>', '>|', '&>', '&>>', '<>', '<', '<&', '>&', '<<', '<<-', '<<<']);

/** Splits a command line into tokens; throws nothing: unterminated quotes simply end at the end of the text. */
export function tokenizeShell(text: string): ShellToken[] {
  const tokens: ShellToken[] = [];
  const pendingHereDocuments: HereDocument[] = [];
  const cursor: Cursor = { text, index: 0 };
  while (cursor.index < text.length) {
    const character = text[cursor.index] ?? '';
    if (character === ' ' || character === '\t') {
      cursor.index += 1;
      continue;
    }
    if (character === '\\' && text[cursor.index + 1] === '\n') {
      cursor.index += 2;
      continue;
    }
    if (character === '#') {
      while (cursor.index < text.length && text[cursor.index] !== '\n') cursor.index += 1;
      continue;
    }
    const operator = operators.find((candidate) => text.startsWith(candidate, cursor.index));
    if (operator !== undefined) {
      tokens.push({ kind: 'operator', operator });
      cursor.index += operator.length;
      if (operator === '<<' || operator === '<<-') {
        const delimiter = readWord({ text, index: skipBlanks(cursor) });
        pendingHereDocuments.push({ delimiter: wordText(delimiter.parts), stripTabs: operator === '<<-' });
      }
      if (operator === '\n' && pendingHereDocuments.length > 0) skipHereDocuments(cursor, pendingHereDocuments.splice(0));
      continue;
    }
    // A file descriptor number directly before a redirection belongs to it (`2>file`).
    const descriptor = /^\d+(?=[<>])/.exec(text.slice(cursor.index));
    if (descriptor !== null) {
      cursor.index += descriptor[0].length;
      continue;
    }
    const start = cursor.index;
    const word = readWord(cursor);
    tokens.push({ kind: 'word', raw: text.slice(start, cursor.index), parts: word.parts, substitutions: word.substitutions });
  }
  return tokens;
}

/** The text of a word, with `~`, `$NAME` for parameters and `?` for what cannot be known. */
export function wordText(parts: readonly WordPart[]): string {
  return parts.map((part) => (part.kind === 'text' ? part.text : part.kind === 'tilde' ? '~' : part.kind === 'parameter' ? `$${part.name}` : '?')).join('');
}

/** Where the lexer is in the text; `index` moves as it reads. */
type Cursor = { readonly text: string; index: number };
type HereDocument = { readonly delimiter: string; readonly stripTabs: boolean };
/** A word being read: its parts so far and the scripts of its command substitutions. */
type WordBuilder = { readonly parts: WordPart[]; readonly substitutions: string[] };

function addLiteral(word: WordBuilder, piece: { readonly text: string; readonly quoted: boolean }): void {
  const last = word.parts.at(-1);
  if (last?.kind === 'text' && last.quoted === piece.quoted) word.parts[word.parts.length - 1] = { kind: 'text', text: last.text + piece.text, quoted: piece.quoted };
  else word.parts.push({ kind: 'text', text: piece.text, quoted: piece.quoted });
}

function readWord(cursor: Cursor): WordBuilder {
  const word: WordBuilder = { parts: [], substitutions: [] };
  const { text } = cursor;
  if (text[cursor.index] === '~') {
    word.parts.push({ kind: 'tilde' });
    cursor.index += 1;
  }
  while (cursor.index < text.length && !wordEnd.has(text[cursor.index] ?? '')) {
    const character = text[cursor.index] ?? '';
    if (character === '\\') {
      addLiteral(word, { text: text[cursor.index + 1] ?? '', quoted: true });
      cursor.index += 2;
    } else if (character === "'") {
      const close = findClosing(text, { from: cursor.index + 1, closing: "'" });
      addLiteral(word, { text: text.slice(cursor.index + 1, close), quoted: true });
      cursor.index = close + 1;
    } else if (character === '$' && text[cursor.index + 1] === "'") {
      const close = findClosing(text, { from: cursor.index + 2, closing: "'" });
      addLiteral(word, { text: text.slice(cursor.index + 2, close).replace(/\\(.)/g, '$1'), quoted: true });
      cursor.index = close + 1;
    } else if (character === '"') {
      cursor.index += 1;
      readDoubleQuoted(cursor, word);
    } else if (character === '$' || character === '`') {
      readExpansion(cursor, { word, quoted: false });
    } else {
      addLiteral(word, { text: character, quoted: false });
      cursor.index += 1;
    }
  }
  return word;
}

function readDoubleQuoted(cursor: Cursor, word: WordBuilder): void {
  const { text } = cursor;
  while (cursor.index < text.length && text[cursor.index] !== '"') {
    const character = text[cursor.index] ?? '';
    if (character === '\\' && /[$`"\\\n]/.test(text[cursor.index + 1] ?? '')) {
      addLiteral(word, { text: text[cursor.index + 1] ?? '', quoted: true });
      cursor.index += 2;
    } else if (character === '$' || character === '`') {
      readExpansion(cursor, { word, quoted: true });
    } else {
      addLiteral(word, { text: character, quoted: true });
      cursor.index += 1;
    }
  }
  cursor.index += 1;
}

/** Reads `$NAME`, `${NAME}`, `$(...)`, `$((...))` or a backquoted command, and moves past it. */
function readExpansion(cursor: Cursor, target: { readonly word: WordBuilder; readonly quoted: boolean }): void {
  const { text } = cursor;
  const { word, quoted } = target;
  const start = cursor.index;
  if (text[start] === '`') {
    const close = findClosing(text, { from: start + 1, closing: '`' });
    word.substitutions.push(text.slice(start + 1, close).replace(/\\`/g, '`'));
    word.parts.push({ kind: 'unknown' });
    cursor.index = close + 1;
    return;
  }
  const next = text[start + 1] ?? '';
  if (next === '(') {
    const close = findParenthesisEnd(text, start + 1);
    const inner = text.slice(start + 2, close);
    // $(( arithmetic )) runs nothing; $( command ) does.
    if (!inner.startsWith('(')) word.substitutions.push(inner);
    word.parts.push({ kind: 'unknown' });
    cursor.index = close + 1;
    return;
  }
  if (next === '{') {
    const close = findClosing(text, { from: start + 2, closing: '}' });
    const inside = text.slice(start + 2, close);
    word.parts.push(/^[A-Za-z_][A-Za-z0-9_]*$/.test(inside) ? { kind: 'parameter', name: inside, quoted } : { kind: 'unknown' });
    cursor.index = close + 1;
    return;
  }
  const name = /^[A-Za-z_][A-Za-z0-9_]*|^[0-9@*#?$!-]/.exec(text.slice(start + 1))?.[0];
  if (name === undefined) {
    addLiteral(word, { text: '$', quoted });
    cursor.index = start + 1;
    return;
  }
  word.parts.push({ kind: 'parameter', name, quoted });
  cursor.index = start + 1 + name.length;
}

function findClosing(text: string, search: { readonly from: number; readonly closing: string }): number {
  for (let index = search.from; index < text.length; index += 1) {
    if (text[index] === '\\' && search.closing !== "'") index += 1;
    else if (text[index] === search.closing) return index;
  }
  return text.length;
}

function findParenthesisEnd(text: string, open: number): number {
  let depth = 0;
  for (let index = open; index < text.length; index += 1) {
    const character = text[index];
    if (character === '\\') index += 1;
    else if (character === "'") index = findClosing(text, { from: index + 1, closing: "'" });
    else if (character === '"') index = findClosing(text, { from: index + 1, closing: '"' });
    else if (character === '(') depth += 1;
    else if (character === ')') {
      depth -= 1;
      if (depth === 0) return index;
    }
  }
  return text.length;
}

/** The index of the first character after blanks, without moving the cursor. */
function skipBlanks(cursor: Cursor): number {
  let index = cursor.index;
  while (cursor.text[index] === ' ' || cursor.text[index] === '\t') index += 1;
  return index;
}

/** Moves past the bodies of here-documents that start on the line just ended. */
function skipHereDocuments(cursor: Cursor, documents: readonly HereDocument[]): void {
  const { text } = cursor;
  for (const document of documents) {
    for (;;) {
      if (cursor.index >= text.length) return;
      const lineEnd = text.indexOf('\n', cursor.index);
      const end = lineEnd === -1 ? text.length : lineEnd;
      const line = text.slice(cursor.index, end);
      cursor.index = Math.min(end + 1, text.length);
      if ((document.stripTabs ? line.replace(/^\t+/, '') : line) === document.delimiter) break;
    }
  }
}
