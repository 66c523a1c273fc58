/**
 * Paths as a shell command names them, resolved without touching the disk: against the working
 * directory the command would have (after `cd`), with `.` and `..` folded, the home folder written
 * as `~` (also for /root and /home/<name>), and glob characters (`*`, `?`, `[...]`) kept as patterns.
 */

/** A resolved path: `/`-rooted or `~`-rooted segments, each a glob pattern (literal characters escaped with `\`). */
export type ShellPath = { readonly root: '/' | '~'; readonly segments: readonly string[] };

/** Escapes glob characters of literal (quoted) text, so it only matches itself. */
export function escapeGlob(text: string): string {
  return text.replace(/[\\*?[\]]/g, (character) => `\\${character}`);
}

/** True when a pattern has an unescaped glob character. */
export function hasGlob(pattern: string): boolean {
  return /(^|[^\\])[*?[]/.test(pattern);
}

/** Resolves a path pattern against a working directory; undefined when it depends on a directory we cannot know. */
export function resolveShellPath(pattern: string, workingDirectory: ShellPath | undefined): ShellPath | undefined {
  let base: ShellPath | undefined;
  let rest = pattern;
  if (pattern.startsWith('/')) {
    base = { root: '/', segments: [] };
  } else if (pattern === '~' || pattern.startsWith('~/')) {
    base = { root: '~', segments: [] };
    rest = pattern.slice(1);
  } else {
    base = workingDirectory;
  }
  if (base === undefined) return undefined;
  const segments = [...base.segments];
  for (const segment of rest.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return homeAware({ root: base.root, segments });
}

/** The path as text: `/`, `/etc`, `~`, `~/.ssh/authorized_keys`. */
export function formatShellPath(path: ShellPath): string {
  const tail = path.segments.map((segment) => segment.replace(/\\(.)/g, '$1')).join('/');
  if (path.root === '~') return tail === '' ? '~' : `~/${tail}`;
  return `/${tail}`;
}

/** Whether the pattern `candidate` (globs allowed) matches the literal path `target` exactly. */
export function patternMatches(candidate: ShellPath, target: ShellPath): boolean {
  if (candidate.root !== target.root || candidate.segments.length !== target.segments.length) return false;
  return candidate.segments.every((segment, index) => segmentMatches(segment, target.segments[index] ?? ''));
}

/** Whether the pattern `candidate` matches `target` or one of its ancestors (deleting it deletes `target`). */
export function patternCovers(candidate: ShellPath, target: ShellPath): boolean {
  if (candidate.root !== target.root || candidate.segments.length > target.segments.length) return false;
  return candidate.segments.every((segment, index) => segmentMatches(segment, target.segments[index] ?? ''));
}

/** Parses a literal path such as `/etc/passwd` or `~/.ssh` into a ShellPath (no globs). */
export function literalPath(text: string): ShellPath {
  const resolved = resolveShellPath(escapeGlob(text), { root: '/', segments: [] });
  return resolved ?? { root: '/', segments: [] };
}

// /root and /home/<name> are someone's home folder: the same rules as `~` apply.
function homeAware(path: ShellPath): ShellPath {
  const [first, second, ...rest] = path.segments;
  if (path.root === '/' && first === 'root') return { root: '~', segments: second === undefined ? [] : [second, ...rest] };
  if (path.root === '/' && first === 'home' && second !== undefined && !hasGlob(second)) return { root: '~', segments: rest };
  return path;
}

function segmentMatches(pattern: string, name: string): boolean {
  if (!hasGlob(pattern)) return pattern.replace(/\\(.)/g, '$1') === name;
  let source = '';
  for (let index = 0; index < pattern.length; index += 1) {
    const character = pattern[index] ?? '';
    if (character === '\\') {
      source += escapeRegex(pattern[index + 1] ?? '');
      index += 1;
    } else if (character === '*') {
      source += '.*';
    } else if (character === '?') {
      source += '.';
    } else if (character === '[') {
      const close = pattern.indexOf(']', index + 2);
      if (close === -1) {
        source += '\\[';
      } else {
        const body = pattern.slice(index + 1, close).replace(/^!/, '^').replace(/\\/g, '\\\\');
        source += `[${body}]`;
        index = close;
      }
    } else {
      source += escapeRegex(character);
    }
  }
  try {
    return new RegExp(`^${source}$`).test(name);
  } catch {
    // A pattern we cannot read might match anything.
    return true;
  }
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
