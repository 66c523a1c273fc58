import { type AnalysedWord, checkCommand, checkWrite } from './catastrophic-rules.js';
import { redirectionOperators, type ShellToken, tokenizeShell, type WordPart } from './shell-lexer.js';
import { escapeGlob, resolveShellPath, type ShellPath } from './shell-paths.js';

/**
 * Shell commands that are never run, whoever approves them: recursive deletes of protected roots
 * (`/`, `~`, system folders; through `cd`, globs, `.` and variables too), fork bombs, writes to
 * credential files, disk formatting and shutdowns. This is the last line behind approvals and the
 * sandbox, not the main defence: it cannot see into scripts written to files, or values computed at
 * run time. The command is read by a shell lexer (quotes, escapes, substitutions, redirections,
 * here-documents), never by regular expressions over the text.
 */

/** Where the command runs, when known: relative paths and `cd` are resolved against it. */
export type CatastropheOptions = { readonly workingDirectory?: string };

// Words that run the command after them.
const wrappers = new Set(['sudo', 'doas', 'env', 'nohup', 'exec', 'command', 'builtin', 'time', 'nice', 'ionice', 'timeout', 'stdbuf', 'setsid', 'busybox', 'chrt', 'taskset', 'unbuffer', 'xargs']);
const wrapperOptionsWithValue = new Set(['-u', '-g', '-U', '-C', '-p', '-r', '-t', '-D', '-n', '-c', '-s', '-k', '-o', '-e', '-i']);
const shells = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'ash', 'mksh']);
// Reserved words that open or join compound commands: the command is the word after them.
const reservedWords = new Set(['if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until', 'for', 'case', 'esac', 'in', '!', '{', '}', 'select', 'function']);
const separators = new Set([';', '&', '&&', '||', '|', '|&', '\n', ';;', '(', ')']);
const maximumDepth = 8;

type Scope = { workingDirectory: ShellPath | undefined; variables: Map<string, string | undefined> };
/** Where the analysis is: the shell state it simulates, and how deep in nested scripts (`sh -c`, `$(...)`, `eval`). */
type Analysis = { readonly scope: Scope; readonly depth: number };

/** Says why a shell command is catastrophic (never to be run), or undefined when it is not on the list. */
export function isCatastrophicCommand(command: string, options: CatastropheOptions = {}): string | undefined {
  const start = options.workingDirectory === undefined ? undefined : resolveShellPath(escapeGlob(options.workingDirectory), undefined);
  return analyseScript(command, { scope: { workingDirectory: start, variables: new Map() }, depth: 0 });
}

/** A nested script: a copy of the shell state (a subshell cannot change ours), one level deeper. */
function nested(analysis: Analysis): Analysis {
  return { scope: { workingDirectory: analysis.scope.workingDirectory, variables: new Map(analysis.scope.variables) }, depth: analysis.depth + 1 };
}

function analyseScript(script: string, analysis: Analysis): string | undefined {
  if (analysis.depth > maximumDepth) return undefined;
  const { scope } = analysis;
  const tokens = tokenizeShell(script);
  const bomb = findForkBomb(tokens);
  if (bomb !== undefined) return bomb;
  const saved: Scope[] = [];
  let current: ShellToken[] = [];
  for (const token of [...tokens, { kind: 'operator', operator: '\n' } as const]) {
    if (token.kind === 'operator' && separators.has(token.operator)) {
      const reason = analyseSimpleCommand(current, analysis);
      if (reason !== undefined) return reason;
      current = [];
      // A subshell's `cd` ends with it.
      if (token.operator === '(') saved.push({ workingDirectory: scope.workingDirectory, variables: new Map(scope.variables) });
      if (token.operator === ')') Object.assign(scope, saved.pop() ?? scope);
      continue;
    }
    current.push(token);
  }
  return undefined;
}

function analyseSimpleCommand(tokens: readonly ShellToken[], analysis: Analysis): string | undefined {
  const { scope } = analysis;
  const words: AnalysedWord[] = [];
  const resolve = (pattern: string) => resolveShellPath(pattern, scope.workingDirectory);
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index];
    if (token === undefined) continue;
    if (token.kind === 'word') {
      for (const substitution of token.substitutions) {
        const reason = analyseScript(substitution, nested(analysis));
        if (reason !== undefined) return reason;
      }
      words.push(analyseWord(token.parts, scope));
      continue;
    }
    if (!redirectionOperators.has(token.operator)) continue;
    const target = tokens[index + 1];
    index += 1;
    if (target?.kind !== 'word' || ['<', '<<', '<<-', '<<<', '<&'].includes(token.operator)) continue;
    if (token.operator === '>&' && /^\d+$|^-$/.test(target.raw)) continue;
    const reason = checkWrite(analyseWord(target.parts, scope), resolve);
    if (reason !== undefined) return reason;
  }
  return analyseWords(words, analysis);
}

function analyseWords(all: readonly AnalysedWord[], analysis: Analysis): string | undefined {
  const { scope } = analysis;
  let index = 0;
  // Leading assignments: remembered when they stand alone (`X=/etc; rm -rf $X`).
  while (index < all.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(all[index]?.text ?? '')) index += 1;
  if (index === all.length) {
    for (const word of all) {
      const equals = word.text.indexOf('=');
      scope.variables.set(word.text.slice(0, equals), word.pattern === undefined ? undefined : word.pattern.slice(equals + 1));
    }
    return undefined;
  }
  while (index < all.length) {
    const word = all[index]?.text ?? '';
    const name = word.slice(word.lastIndexOf('/') + 1);
    if (reservedWords.has(word) || /^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) {
      index += 1;
    } else if (wrappers.has(name) || (index > 0 && (word.startsWith('-') || /^\d+(\.\d+)?[smhd]?$/.test(word)))) {
      index += wrapperOptionsWithValue.has(word) ? 2 : 1;
    } else {
      break;
    }
  }
  const commandWord = all[index];
  if (commandWord === undefined) return undefined;
  const name = commandWord.text.slice(commandWord.text.lastIndexOf('/') + 1);
  const rest = all.slice(index + 1);
  const resolve = (pattern: string) => resolveShellPath(pattern, scope.workingDirectory);
  if (name === 'cd' || name === 'pushd') {
    const target = rest.find((word) => !word.text.startsWith('-'));
    scope.workingDirectory = target === undefined ? { root: '~', segments: [] } : target.pattern === undefined ? undefined : resolve(target.pattern);
    return undefined;
  }
  // eval runs in this shell: its `cd` counts here too.
  if (name === 'eval') return analyseScript(rest.map((word) => word.text).join(' '), { scope, depth: analysis.depth + 1 });
  if (shells.has(name)) {
    const flag = rest.findIndex((word) => /^-[a-z]*c[a-z]*$/.test(word.text));
    const script = flag === -1 ? undefined : rest[flag + 1];
    return script === undefined ? undefined : analyseScript(script.text, nested(analysis));
  }
  return checkCommand({ name, words: rest }, resolve);
}

/** A word after quote removal: `~` and known parameters resolved, glob characters kept only where unquoted. */
function analyseWord(parts: readonly WordPart[], scope: Scope): AnalysedWord {
  let text = '';
  let pattern: string | undefined = '';
  for (const part of parts) {
    if (part.kind === 'text') {
      text += part.text;
      if (pattern !== undefined) pattern += part.quoted ? escapeGlob(part.text) : part.text;
    } else if (part.kind === 'tilde') {
      text += '~';
      if (pattern !== undefined) pattern += '~';
    } else if (part.kind === 'parameter') {
      const known = part.name === 'HOME' ? '~' : scope.variables.get(part.name);
      text += known ?? `$${part.name}`;
      if (pattern !== undefined) pattern = known === undefined ? undefined : pattern + known;
    } else {
      text += '?';
      pattern = undefined;
    }
  }
  return { text, pattern };
}

/** A function that calls itself twice, or in the background or a pipe: `bomb(){ bomb & bomb; }; bomb`, `:(){ :|:& };:`. */
function findForkBomb(tokens: readonly ShellToken[]): string | undefined {
  for (let index = 0; index < tokens.length; index += 1) {
    const name = functionNameAt(tokens, index);
    if (name === undefined) continue;
    const body = functionBody(tokens, index);
    let calls = 0;
    let backgroundOrPipe = false;
    let commandStart = true;
    for (const token of body) {
      if (token.kind === 'operator') {
        if (token.operator === '&' || token.operator === '|' || token.operator === '|&') backgroundOrPipe = true;
        commandStart = separators.has(token.operator);
        continue;
      }
      if (commandStart && token.raw === name) calls += 1;
      commandStart = reservedWords.has(token.raw);
    }
    if (calls >= 2 || (calls >= 1 && backgroundOrPipe)) return 'It is a fork bomb.';
  }
  return undefined;
}

function functionNameAt(tokens: readonly ShellToken[], index: number): string | undefined {
  const token = tokens[index];
  const next = tokens[index + 1];
  const after = tokens[index + 2];
  if (token?.kind !== 'word') return undefined;
  if (token.raw === 'function' && next?.kind === 'word') return next.raw;
  if (next?.kind === 'operator' && next.operator === '(' && after?.kind === 'operator' && after.operator === ')') return token.raw;
  return undefined;
}

/** The tokens of the function's body: up to the `}` or `)` that closes the first `{` or `(` after the name. */
function functionBody(tokens: readonly ShellToken[], index: number): readonly ShellToken[] {
  let position = index + 1;
  while (position < tokens.length) {
    const token = tokens[position];
    if ((token?.kind === 'word' && token.raw === '{') || (token?.kind === 'operator' && token.operator === '(' && tokens[position + 1]?.kind !== 'operator')) break;
    position += 1;
  }
  let depth = 0;
  const body: ShellToken[] = [];
  for (; position < tokens.length; position += 1) {
    const token = tokens[position];
    if (token === undefined) break;
    const opens = (token.kind === 'word' && token.raw === '{') || (token.kind === 'operator' && token.operator === '(');
    const closes = (token.kind === 'word' && token.raw === '}') || (token.kind === 'operator' && token.operator === ')');
    if (opens) depth += 1;
    if (closes) depth -= 1;
    if (depth === 0 && closes) break;
    if (!(opens && depth === 1)) body.push(token);
  }
  return body;
}
