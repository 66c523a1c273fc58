import { accessSync, constants } from 'node:fs';
import path from 'node:path';

/**
 * How exec runs commands: inside bubblewrap (`bwrap`: own PID namespace, system read-only,
 * workspace read-write, no network unless allowed, agent folders hidden), or without a sandbox,
 * which only an explicit `tools.sandbox: off` allows.
 */
export type ExecSandbox =
  | {
      readonly mode: 'bwrap';
      /** Absolute path of bwrap, or undefined when it is not installed (exec is then refused). */
      readonly bwrapPath: string | undefined;
      /** Whether commands may use the network (a shared network namespace). */
      readonly network: boolean;
      /** Folders hidden behind an empty tmpfs (the data folder, the agent's home, the project root). */
      readonly hiddenPaths: readonly string[];
      /** Files replaced by an empty one (`.env`, config overlays holding secrets). */
      readonly hiddenFiles?: readonly string[];
    }
  | { readonly mode: 'off' };

/** The program and arguments that run one shell command, sandboxed or not. */
export type SandboxedCommand = { readonly file: string; readonly args: readonly string[] };

/** Finds an executable by name in a PATH-style list of folders; undefined when none is executable. */
export function findExecutable(name: string, searchPath: string): string | undefined {
  for (const folder of searchPath.split(':')) {
    if (folder === '' || !path.isAbsolute(folder)) continue;
    const candidate = path.join(folder, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here.
    }
  }
  return undefined;
}

/** The sentence exec answers with when the sandbox is required and bwrap is missing. */
export const missingSandboxMessage =
  'exec is refused: bubblewrap (bwrap) is not installed, so commands cannot run in a sandbox. Install it ' +
  '(apt-get install bubblewrap), or set tools.sandbox: off (ECHO_EXEC_SANDBOX=off) to run commands without one.';

/** Builds the command line for `/bin/sh -c command` in the workspace; a refusal when the sandbox cannot run. Pure. */
export function buildSandboxedCommand(input: { readonly sandbox: ExecSandbox; readonly command: string; readonly workspaceDir: string }): { readonly ok: true; readonly command: SandboxedCommand } | { readonly ok: false; readonly error: string } {
  const { sandbox, command, workspaceDir } = input;
  if (sandbox.mode === 'off') return { ok: true, command: { file: '/bin/sh', args: ['-c', command] } };
  if (sandbox.bwrapPath === undefined) return { ok: false, error: missingSandboxMessage };
  const workspace = path.resolve(workspaceDir);
  const args = [
    // A SIGKILLed agent takes the sandbox down with it; the PID namespace ends everything inside.
    '--die-with-parent',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    ...(sandbox.network ? [] : ['--unshare-net']),
    // No terminal injection into the agent's session.
    '--new-session',
    '--cap-drop',
    'ALL',
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    // A fresh /proc of the new PID namespace: nothing of the agent is visible.
    '--proc',
    '/proc',
    '--tmpfs',
    '/tmp',
  ];
  for (const hidden of sandbox.hiddenPaths) {
    const folder = path.resolve(hidden);
    // Hiding the root, or a folder the workspace cannot be mounted back into, is never asked for.
    if (folder === '/' || folder === '/proc' || folder === '/dev') continue;
    args.push('--tmpfs', folder);
  }
  for (const file of sandbox.hiddenFiles ?? []) args.push('--ro-bind', '/dev/null', path.resolve(file));
  args.push('--bind', workspace, workspace, '--chdir', workspace, '/bin/sh', '-c', command);
  return { ok: true, command: { file: sandbox.bwrapPath, args } };
}

/** One line for start-up and the doctor: which sandbox exec uses. Pure. */
export function describeExecSandbox(sandbox: ExecSandbox): string {
  if (sandbox.mode === 'off') return 'off: commands run without a sandbox (tools.sandbox: off)';
  if (sandbox.bwrapPath === undefined) return 'bwrap required but not installed: exec is refused (apt-get install bubblewrap)';
  return `bwrap (${sandbox.bwrapPath}), ${sandbox.network ? 'network allowed' : 'no network'}`;
}
