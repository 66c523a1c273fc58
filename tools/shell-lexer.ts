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
  const pendingHereDocuments: { delimiter: string; stripTabs: boolean }[] = [];
  let index = 0;
  while (index < text.length) {
    const character = text[index] ?? '';
    if (character === ' ' || character === '\t') {
      index += 1;
      continue;
    }
    if (character === '\\' && text[index + 1] === '\n') {
      index += 2;
      continue;
    }
    if (character === '#') {
      while (index < text.length && text[index] !== '\n') index += 1;
      continue;
    }
    const operator = operators.find((candidate) => text.startsWith(candidate, index));
    if (operator !== undefined) {
      tokens.push({ kind: 'operator', operator });
      index += operator.length;
      if (operator === '<<' || operator === '<<-') {
        const delimiter = readWord(text, skipBlanks(text, index));
        pendingHereDocuments.push({ delimiter: wordText(delimiter.parts), stripTabs: operator === '<<-' });
      }
      if (operator === '\n' && pendingHereDocuments.length > 0) {
        index = skipHereDocuments(text, index, pendingHereDocuments.splice(0));
      }
      continue;
    }
    // A file descriptor number directly before a redirection belongs to it (`2>file`).
    const descriptor = /^\d+(?=[<>])/.exec(text.slice(index));
    if (descriptor !== null) {
      index += descriptor[0].length;
      continue;
    }
    const word = readWord(text, index);
    tokens.push({ kind: 'word', raw: text.slice(index, word.end), parts: word.parts, substitutions: word.substitutions });
    index = word.end;
  }
  return tokens;
}

/** The literal text of a word when every part is known text; undefined when it holds a parameter or substitution. */
export function wordText(parts: readonly WordPart[]): string {
  return parts.map((part) => (part.kind === 'text' ? part.text : part.kind === 'tilde' ? '~' : part.kind === 'parameter' ? `$${part.name}` : '?')).join('');
}

type ReadWord = { readonly parts: WordPart[]; readonly substitutions: string[]; readonly end: number };

function readWord(text: string, start: number): ReadWord {
  const parts: WordPart[] = [];
  const substitutions: string[] = [];
  let index = start;
  const literal = (piece: string, quoted: boolean) => {
    const last = parts.at(-1);
    if (last?.kind === 'text' && last.quoted === quoted) parts[parts.length - 1] = { kind: 'text', text: last.text + piece, quoted };
    else parts.push({ kind: 'text', text: piece, quoted });
  };
  if (text[index] === '~') {
    parts.push({ kind: 'tilde' });
    index += 1;
  }
  while (index < text.length && !wordEnd.has(text[index] ?? '')) {
    const character = text[index] ?? '';
    if (character === '\\') {
      literal(text[index + 1] ?? '', true);
      index += 2;
    } else if (character === "'") {
      const close = findClosing(text, index + 1, "'");
      literal(text.slice(index + 1, close), true);
      index = close + 1;
    } else if (character === '$' && text[index + 1] === "'") {
      const close = findClosing(text, index + 2, "'");
      literal(text.slice(index + 2, close).replace(/\\(.)/g, '$1'), true);
      index = close + 1;
    } else if (character === '"') {
      index = readDoubleQuoted(text, index + 1, parts, substitutions, literal);
    } else if (character === '$' || character === '`') {
      index = readExpansion(text, index, false, parts, substitutions);
    } else {
      literal(character, false);
      index += 1;
    }
  }
  return { parts, substitutions, end: index };
}

function readDoubleQuoted(text: string, start: number, parts: WordPart[], substitutions: string[], literal: (piece: string, quoted: boolean) => void): number {
  let index = start;
  while (index < text.length && text[index] !== '"') {
    const character = text[index] ?? '';
    if (character === '\\' && /[$`"\\\n]/.test(text[index + 1] ?? '')) {
      literal(text[index + 1] ?? '', true);
      index += 2;
    } else if (character === '$' || character === '`') {
      index = readExpansion(text, index, true, parts, substitutions);
    } else {
      literal(character, true);
      index += 1;
    }
  }
  return index + 1;
}

/** Reads `$NAME`, `${NAME}`, `$(...)`, `$((...))` or a backquoted command; returns the index after it. */
function readExpansion(text: string, start: number, quoted: boolean, parts: WordPart[], substitutions: string[]): number {
  if (text[start] === '`') {
    const close = findClosing(text, start + 1, '`');
    substitutions.push(text.slice(start + 1, close).replace(/\\`/g, '`'));
    parts.push({ kind: 'unknown' });
    return close + 1;
  }
  const next = text[start + 1] ?? '';
  if (next === '(') {
    const close = findParenthesisEnd(text, start + 1);
    const inner = text.slice(start + 2, close);
    // $(( arithmetic )) runs nothing; $( command ) does.
    if (!inner.startsWith('(')) substitutions.push(inner);
    parts.push({ kind: 'unknown' });
    return close + 1;
  }
  if (next === '{') {
    const close = findClosing(text, start + 2, '}');
    const inside = text.slice(start + 2, close);
    const name = /^[A-Za-z_][A-Za-z0-9_]*$/.test(inside) ? inside : undefined;
    parts.push(name === undefined ? { kind: 'unknown' } : { kind: 'parameter', name, quoted });
    return close + 1;
  }
  const name = /^[A-Za-z_][A-Za-z0-9_]*|^[0-9@*#?$!-]/.exec(text.slice(start + 1))?.[0];
  if (name === undefined) {
    parts.push({ kind: 'text', text: '$', quoted });
    return start + 1;
  }
  parts.push({ kind: 'parameter', name, quoted });
  return start + 1 + name.length;
}

function findClosing(text: string, start: number, closing: string): number {
  for (let index = start; index < text.length; index += 1) {
    if (text[index] === '\\' && closing !== "'") index += 1;
    else if (text[index] === closing) return index;
  }
  return text.length;
}

function findParenthesisEnd(text: string, open: number): number {
  let depth = 0;
  for (let index = open; index < text.length; index += 1) {
    const character = text[index];
    if (character === '\\') index += 1;
    else if (character === "'") index = findClosing(text, index + 1, "'");
    else if (character === '"') index = findClosing(text, index + 1, '"');
    else if (character === '(') depth += 1;
    else if (character === ')') {
      depth -= 1;
      if (depth === 0) return index;
    }
  }
  return text.length;
}

function skipBlanks(text: string, start: number): number {
  let index = start;
  while (text[index] === ' ' || text[index] === '\t') index += 1;
  return index;
}

function skipHereDocuments(text: string, start: number, documents: readonly { delimiter: string; stripTabs: boolean }[]): number {
  let index = start;
  for (const document of documents) {
    for (;;) {
      if (index >= text.length) return text.length;
      const lineEnd = text.indexOf('\n', index);
      const end = lineEnd === -1 ? text.length : lineEnd;
      const line = text.slice(index, end);
      index = end + 1;
      if ((document.stripTabs ? line.replace(/^\t+/, '') : line) === document.delimiter) break;
    }
  }
  return Math.min(index, text.length);
}
