import path from 'node:path';
import type { ExecSandbox, SandboxedCommand, SandboxLimits } from './exec-sandbox.js';

/** One program to run sandboxed: exec's `/bin/sh -c command`, or an MCP server's command and arguments. */
export type SandboxedProgramRequest = {
  readonly sandbox: ExecSandbox;
  readonly program: string;
  readonly args: readonly string[];
  /** The folder it starts in. */
  readonly workingDir: string;
  /** Folders bound read-write (exec's workspace, a server's writable mounts). */
  readonly writable: readonly string[];
  /** Paths bound read-only (a server's program and read-only mounts), even inside a hidden folder. */
  readonly readOnly: readonly string[];
  /** Whether it shares the host's network (else only a loopback of its own). */
  readonly network: boolean;
  readonly limits?: SandboxLimits;
  /** This call's pids cgroup, joined by the launcher before anything else starts. */
  readonly cgroupDir?: string;
  /** Variables the spawner adds that the program must not get (names only: values never go on a command line). */
  readonly unsetEnvironment?: readonly string[];
};

// Runs outside the sandbox, then replaces itself: join the call's cgroup, open the seccomp program on fd 9 for
// bwrap's --seccomp 9, exec the rest (prlimit then bwrap). Positional: $1 cgroup folder, $2 filter file, then the rest.
const launcher = 'g=$1; f=$2; shift 2; if [ -n "$g" ]; then echo $$ > "$g/cgroup.procs" || exit 125; fi; if [ -n "$f" ]; then exec 9<"$f" || exit 125; fi; exec "$@"';
const seccompFd = '9';

/**
 * The command line that runs one program in the sandbox (or unsandboxed when it is off), within its limits; a
 * refusal when bwrap is required and missing. Mount order matters: folders are hidden first, then what the program
 * needs is bound back, and the hidden files come last, so no bind can uncover them. Pure.
 */
export function buildSandboxedProgram(request: SandboxedProgramRequest): { readonly ok: true; readonly command: SandboxedCommand } | { readonly ok: false; readonly reason: 'bwrap-missing' } {
  const { sandbox } = request;
  const seccompFilter = sandbox.mode === 'bwrap' ? sandbox.seccompFilterPath : undefined;
  let inner: string[];
  if (sandbox.mode === 'off') {
    inner = [request.program, ...request.args];
  } else {
    if (sandbox.bwrapPath === undefined) return { ok: false, reason: 'bwrap-missing' };
    inner = [sandbox.bwrapPath, ...bubblewrapArguments(request, sandbox), request.program, ...request.args];
  }
  // Unset before bwrap starts, so not even the sandbox's own init process holds them.
  const unset = (request.unsetEnvironment ?? []).flatMap((name) => ['-u', name]);
  const limited = [...(unset.length === 0 ? [] : ['/usr/bin/env', ...unset, '--']), ...prlimitArguments(request.limits, sandbox.enforcement?.prlimitPath), ...inner];
  if (request.cgroupDir === undefined && seccompFilter === undefined && limited.length === inner.length) {
    return { ok: true, command: { file: limited[0] ?? request.program, args: limited.slice(1) } };
  }
  return { ok: true, command: { file: '/bin/sh', args: ['-c', launcher, 'echo-sandbox', request.cgroupDir ?? '', seccompFilter ?? '', ...limited] } };
}

function bubblewrapArguments(request: SandboxedProgramRequest, sandbox: Extract<ExecSandbox, { mode: 'bwrap' }>): string[] {
  const args = [
    // A SIGKILLed agent takes the sandbox down with it; the PID namespace ends everything inside.
    '--die-with-parent',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    ...(request.network ? [] : ['--unshare-net']),
    // No terminal injection into the agent's session.
    '--new-session',
    '--cap-drop',
    'ALL',
    ...(sandbox.seccompFilterPath === undefined ? [] : ['--seccomp', seccompFd]),
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
  // Most specific wins: mounts go shallowest first, so the data folder stays hidden inside a mounted parent and the
  // workspace is bound back inside the hidden data folder; on the same path a bind comes after the tmpfs it undoes.
  const mounts: { readonly kind: 0 | 1 | 2; readonly path: string }[] = [
    ...sandbox.hiddenPaths.map((hidden) => ({ kind: 0 as const, path: path.resolve(hidden) })).filter((mount) => !neverHidden.has(mount.path)),
    ...[...(sandbox.restoredFiles ?? []), ...request.readOnly].map((readOnly) => ({ kind: 1 as const, path: path.resolve(readOnly) })),
    ...request.writable.map((writable) => ({ kind: 2 as const, path: path.resolve(writable) })),
  ];
  mounts.sort((left, right) => depthOf(left.path) - depthOf(right.path) || left.kind - right.kind);
  for (const mount of mounts) {
    if (mount.kind === 0) args.push('--tmpfs', mount.path);
    else args.push(mount.kind === 1 ? '--ro-bind' : '--bind', mount.path, mount.path);
  }
  for (const file of sandbox.hiddenFiles ?? []) args.push('--ro-bind', '/dev/null', path.resolve(file));
  // --dir: a working folder inside a hidden one exists (empty) rather than failing the start.
  args.push('--dir', path.resolve(request.workingDir), '--chdir', path.resolve(request.workingDir), '--');
  return args;
}

// Hiding the root, or a folder the sandbox itself is built on, is never asked for.
const neverHidden = new Set(['/', '/proc', '/dev', '/tmp']);

function depthOf(folder: string): number {
  return folder.split('/').filter((part) => part !== '').length;
}

function prlimitArguments(limits: SandboxLimits | undefined, prlimitPath: string | undefined): string[] {
  if (limits === undefined || prlimitPath === undefined) return [];
  const args: string[] = [];
  if (limits.memoryMb > 0) args.push(`--data=${limits.memoryMb * 1024 * 1024}`);
  // SIGXCPU at the limit (a clear reason), SIGKILL one second later for a process that catches it.
  if (limits.cpuSeconds > 0) args.push(`--cpu=${limits.cpuSeconds}:${limits.cpuSeconds + 1}`);
  if (limits.processes > 0) args.push(`--nproc=${limits.processes}`);
  return args.length === 0 ? [] : [prlimitPath, ...args, '--'];
}
