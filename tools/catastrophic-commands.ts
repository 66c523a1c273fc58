/**
 * Shell commands that are never run, whoever approves them. This is a deny-list of the obvious
 * disasters, a last line of defence behind approval, not a sandbox: it cannot see through
 * encodings, scripts or variables.
 */

// Words that run the command after them: skipped to find the real command.
const wrappers = new Set(['sudo', 'doas', 'env', 'nohup', 'exec', 'command', 'builtin', 'time', 'nice', 'ionice', 'timeout', 'xargs', 'busybox', 'eval', 'then', 'do', 'else', 'if', 'while', 'until', '!']);
// Options of wrappers that take a value (`sudo -u root`, `env -u NAME`).
const wrapperOptionsWithValue = new Set(['-u', '-g', '-U', '-C', '-p', '-r', '-t', '-D']);
const shells = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'ash', 'fish']);
const powerCommands = new Set(['shutdown', 'reboot', 'halt', 'poweroff']);
const systemFolders = ['bin', 'boot', 'dev', 'etc', 'home', 'lib', 'lib32', 'lib64', 'opt', 'proc', 'root', 'sbin', 'srv', 'sys', 'usr', 'var'];
const harmlessDevices = /^\/dev\/(null|zero|stdout|stderr|stdin|tty|fd\/|shm\/)/;
const diskDevices = /^\/dev\/(sd|hd|vd|xvd|nvme|mmcblk|disk|mapper|md|dm-|loop|sr)/;
const sensitiveFiles = /^(\/etc\/(passwd|shadow|gshadow|group|sudoers)(\.d)?(\/|$)|(~|\$home|\$\{home\}|\/root|\/home\/[^/]+)\/\.ssh(\/|$))/i;

/** Says why a shell command is catastrophic (never to be run), or undefined when it is not on the list. */
export function isCatastrophicCommand(command: string): string | undefined {
  const compact = command.replace(/\s+/g, '');
  if (/([^\s(){};|&]+)\(\)\{\1\|\1&\};\1/.test(compact)) return 'It is a fork bomb.';

  // Quotes and escapes only hide words from this check; the shell would remove them anyway.
  const unquoted = command.replace(/["'\\]/g, '');
  const redirect = /(?:^|[^<])>{1,2}\|?\s*([^\s;&|)]+)/g;
  for (const match of unquoted.matchAll(redirect)) {
    const reason = checkWrittenPath(match[1] ?? '');
    if (reason !== undefined) return reason;
  }

  for (const segment of unquoted.split(/[;&|\n()`{}]|\$\(/)) {
    const reason = checkSegment(segment.trim().split(/\s+/).filter((token) => token !== ''));
    if (reason !== undefined) return reason;
  }
  return undefined;
}

function checkSegment(tokens: readonly string[]): string | undefined {
  let index = 0;
  while (index < tokens.length) {
    const token = tokens[index] ?? '';
    const name = baseName(token);
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(token) || wrappers.has(name) || /^-/.test(token) || /^\d+[smhd]?$/.test(token)) {
      index += wrapperOptionsWithValue.has(token) ? 2 : 1;
      continue;
    }
    if (shells.has(name)) {
      // `sh -c 'rm -rf /'`: the words after -c are the command.
      const flag = tokens.indexOf('-c', index + 1);
      if (flag === -1) return undefined;
      index = flag + 1;
      continue;
    }
    return checkCommand(name, tokens.slice(index + 1));
  }
  return undefined;
}

function checkCommand(name: string, commandArguments: readonly string[]): string | undefined {
  const options = commandArguments.filter((argument) => argument.startsWith('-'));
  const operands = commandArguments.filter((argument) => !argument.startsWith('-'));
  const recursive = options.some((option) => option === '--recursive' || /^-[^-]*[rR]/.test(option));

  if (name === 'rm') {
    if (options.includes('--no-preserve-root')) return 'It deletes the root folder (--no-preserve-root).';
    const target = operands.find(isCriticalFolder);
    if (recursive && target !== undefined) return `It deletes ${target} recursively.`;
  }
  if ((name === 'chmod' || name === 'chown' || name === 'chgrp') && recursive) {
    const target = operands.find(isCriticalFolder);
    if (target !== undefined) return `It changes ownership or permissions of ${target} recursively.`;
  }
  if (name === 'find' && operands[0] !== undefined && isCriticalFolder(operands[0]) && options.includes('-delete')) {
    return `It deletes files under ${operands[0]}.`;
  }
  if (name.startsWith('mkfs') || name === 'mke2fs' || name === 'wipefs') return 'It formats or wipes a disk.';
  if (name === 'dd') {
    const output = operands.find((operand) => operand.startsWith('of='))?.slice(3);
    if (output?.startsWith('/dev/') === true && !harmlessDevices.test(output)) return `It writes raw data to the device ${output}.`;
    if (output !== undefined) return checkWrittenPath(output);
  }
  if (powerCommands.has(name)) return 'It shuts down or restarts the machine.';
  if (name === 'systemctl' && operands.some((operand) => /^(poweroff|reboot|halt|kexec|suspend|hibernate)$/.test(operand))) {
    return 'It shuts down or restarts the machine.';
  }
  if ((name === 'init' || name === 'telinit') && (operands[0] === '0' || operands[0] === '6')) {
    return 'It shuts down or restarts the machine.';
  }
  return checkSensitiveWrite(name, commandArguments, operands);
}

function checkSensitiveWrite(name: string, commandArguments: readonly string[], operands: readonly string[]): string | undefined {
  let written: readonly string[] = [];
  if (name === 'tee' || name === 'mv' || name === 'rm' || name === 'truncate' || name === 'chmod' || name === 'chown' || name === 'shred') {
    written = operands;
  } else if (name === 'cp' || name === 'ln' || name === 'install' || name === 'rsync' || name === 'scp') {
    written = operands.slice(-1);
  } else if ((name === 'sed' || name === 'perl') && commandArguments.some((argument) => /^-[^-]*i/.test(argument) || argument.startsWith('--in-place'))) {
    written = operands;
  } else if (name === 'ssh-keygen' || name === 'ssh-copy-id') {
    written = commandArguments;
  }
  for (const operand of written) {
    const reason = checkWrittenPath(operand);
    if (reason !== undefined) return reason;
  }
  return undefined;
}

function checkWrittenPath(target: string): string | undefined {
  const normalised = target.replace(/\/{2,}/g, '/');
  if (sensitiveFiles.test(normalised)) return `It writes to ${target}, which controls who can log in to this machine.`;
  if (diskDevices.test(normalised)) return `It writes raw data to the device ${target}.`;
  return undefined;
}

function isCriticalFolder(operand: string): boolean {
  const path = operand.replace(/\/{2,}/g, '/').replace(/(\/\.)+$/, '/');
  if (/^\/(\*|\.\*)?$/.test(path)) return true;
  if (/^(~|\$HOME|\$\{HOME\})\/?(\*|\.\*)?$/.test(path)) return true;
  return systemFolders.some((folder) => new RegExp(`^/${folder}/?(\\*)?$`).test(path));
}

function baseName(token: string): string {
  return token.slice(token.lastIndexOf('/') + 1);
}
