import { formatShellPath, hasGlob, literalPath, patternCovers, patternMatches, type ShellPath } from './shell-paths.js';

/** One word of a command as the analysis sees it: its text after quote removal, the glob pattern, and whether it is known. */
export type AnalysedWord = {
  /** The text, with parameters we could not resolve shown as `$NAME`. */
  readonly text: string;
  /** The word as a glob pattern (quoted glob characters escaped); undefined when part of it is unknowable. */
  readonly pattern: string | undefined;
};

/** Resolves a pattern against the command's working directory. */
export type PathResolver = (pattern: string) => ShellPath | undefined;

const systemFolders = ['bin', 'boot', 'dev', 'etc', 'home', 'lib', 'lib32', 'lib64', 'opt', 'proc', 'root', 'sbin', 'srv', 'sys', 'usr', 'var'];
/** Folders whose recursive deletion (or of anything containing them) is never run. */
const protectedRoots: readonly ShellPath[] = [{ root: '/', segments: [] }, { root: '~', segments: [] }, ...systemFolders.map((folder) => literalPath(`/${folder}`))];
/** Files and folders that decide who can log in, or that hold credentials: never written. */
const credentialFiles: readonly ShellPath[] = [
  '/etc/passwd',
  '/etc/shadow',
  '/etc/gshadow',
  '/etc/group',
  '/etc/sudoers',
  '/etc/crontab',
  '~/.netrc',
  '~/.pgpass',
  '~/.git-credentials',
  '~/.npmrc',
  '~/.bashrc',
  '~/.bash_profile',
  '~/.profile',
  '~/.zshrc',
].map(literalPath);
const credentialFolders: readonly ShellPath[] = ['~/.ssh', '/etc/sudoers.d', '/etc/cron.d', '~/.gnupg', '~/.aws', '~/.kube', '~/.docker', '~/.config/gcloud'].map(literalPath);
const harmlessDevices = /^\/dev\/(null|zero|stdout|stderr|stdin|tty|fd\/|shm\/)/;
const diskDevices = /^\/dev\/(sd|hd|vd|xvd|nvme|mmcblk|disk|mapper|md|dm-|loop|sr)/;
const powerCommands = new Set(['shutdown', 'reboot', 'halt', 'poweroff']);

/** Why writing to this word's path is never run, or undefined. */
export function checkWrite(word: AnalysedWord, resolve: PathResolver): string | undefined {
  if (word.pattern === undefined) return undefined;
  const literal = word.pattern.replace(/\\(.)/g, '$1');
  if (diskDevices.test(literal.replace(/\/{2,}/g, '/'))) return `It writes raw data to the device ${word.text}.`;
  const path = resolve(word.pattern);
  if (path === undefined) return undefined;
  const sensitive = credentialFiles.some((file) => patternMatches(path, file)) || credentialFolders.some((folder) => isInside(path, folder));
  return sensitive ? `It writes to ${formatShellPath(path)}, which holds credentials or decides who can log in to this machine.` : undefined;
}

/** Why deleting this word's path recursively is never run, or undefined. */
export function checkRecursiveDelete(word: AnalysedWord, resolve: PathResolver): string | undefined {
  if (word.pattern === undefined) return undefined;
  const path = resolve(word.pattern);
  if (path === undefined) return undefined;
  // `/etc/*` and `/etc/.` empty the folder itself: judge the folder.
  const segments = [...path.segments];
  while (segments.length > 0 && /^(\*|\.\*|\.)$/.test(segments.at(-1) ?? '')) segments.pop();
  const target = { root: path.root, segments };
  const hit = protectedRoots.find((root) => patternCovers(target, root));
  if (hit === undefined) return undefined;
  const shown = formatShellPath(path);
  return hasGlob(word.pattern) || shown !== word.text ? `It deletes ${shown} recursively (${word.text} matches ${formatShellPath(hit)}).` : `It deletes ${shown} recursively.`;
}

/** Why one simple command is never run (by name and words, wrappers already removed), or undefined. */
export function checkCommand(command: { readonly name: string; readonly words: readonly AnalysedWord[] }, resolve: PathResolver): string | undefined {
  const { name, words } = command;
  const endOfOptions = words.findIndex((word) => word.text === '--');
  const options = words.filter((word, index) => word.text.startsWith('-') && (endOfOptions === -1 || index < endOfOptions));
  const operands = words.filter((word, index) => !(word.text.startsWith('-') && (endOfOptions === -1 || index < endOfOptions)) && index !== endOfOptions);
  const recursive = options.some((option) => option.text === '--recursive' || /^-[^-]*[rR]/.test(option.text));
  const first = (check: (word: AnalysedWord) => string | undefined, candidates: readonly AnalysedWord[]) => candidates.map(check).find((reason) => reason !== undefined);

  if (name === 'rm') {
    if (options.some((option) => option.text === '--no-preserve-root')) return 'It deletes the root folder (--no-preserve-root).';
    if (recursive) {
      const reason = first((word) => checkRecursiveDelete(word, resolve), operands);
      if (reason !== undefined) return reason;
    }
    return first((word) => checkWrite(word, resolve), operands);
  }
  if ((name === 'chmod' || name === 'chown' || name === 'chgrp') && recursive) {
    const reason = first((word) => (checkRecursiveDelete(word, resolve) === undefined ? undefined : `It changes ownership or permissions of ${word.text} recursively.`), operands);
    if (reason !== undefined) return reason;
  }
  if (name === 'find' && words.some((word) => word.text === '-delete' || word.text === 'rm')) {
    const start = words.find((word) => !word.text.startsWith('-'));
    if (start !== undefined && checkRecursiveDelete(start, resolve) !== undefined) return `It deletes files under ${start.text}.`;
  }
  if (name.startsWith('mkfs') || name === 'mke2fs' || name === 'wipefs') return 'It formats or wipes a disk.';
  if (name === 'dd') {
    const output = words.find((word) => word.text.startsWith('of='));
    const target = output?.text.slice(3);
    if (target?.startsWith('/dev/') === true && !harmlessDevices.test(target)) return `It writes raw data to the device ${target}.`;
    if (output?.pattern !== undefined) return checkWrite({ text: output.text.slice(3), pattern: output.pattern.slice(3) }, resolve);
  }
  if (powerCommands.has(name)) return 'It shuts down or restarts the machine.';
  if (name === 'systemctl' && operands.some((word) => /^(poweroff|reboot|halt|kexec|suspend|hibernate)$/.test(word.text))) return 'It shuts down or restarts the machine.';
  if ((name === 'init' || name === 'telinit') && (operands[0]?.text === '0' || operands[0]?.text === '6')) return 'It shuts down or restarts the machine.';
  if (name === 'kill' && words.some((word) => word.text === '-1') && options.length >= 2) return 'It kills every process it can reach (kill -1).';
  return checkCredentialWriters({ name, words, operands }, resolve);
}

function checkCredentialWriters(command: { readonly name: string; readonly words: readonly AnalysedWord[]; readonly operands: readonly AnalysedWord[] }, resolve: PathResolver): string | undefined {
  const { name, words, operands } = command;
  let written: readonly AnalysedWord[] = [];
  if (['tee', 'mv', 'truncate', 'chmod', 'chown', 'shred', 'ssh-keygen', 'ssh-copy-id'].includes(name)) written = operands;
  else if (['cp', 'ln', 'install', 'rsync', 'scp'].includes(name)) written = operands.slice(-1);
  else if ((name === 'sed' || name === 'perl') && words.some((word) => /^-[^-]*i/.test(word.text) || word.text.startsWith('--in-place'))) written = operands;
  for (const word of written) {
    const reason = checkWrite(word, resolve);
    if (reason !== undefined) return reason;
  }
  return undefined;
}

function isInside(path: ShellPath, folder: ShellPath): boolean {
  if (path.segments.length < folder.segments.length) return false;
  return patternCovers({ root: path.root, segments: path.segments.slice(0, folder.segments.length) }, folder);
}
