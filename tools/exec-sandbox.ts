import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { buildSandboxedProgram } from './build-sandboxed-program.js';

/** Per-process ceilings for one sandboxed program (a command or an MCP server); 0 means no limit. */
export type SandboxLimits = {
  /** Private writable memory (RLIMIT_DATA) of each process, in MB. */
  readonly memoryMb: number;
  /** CPU time (RLIMIT_CPU) of each process, in seconds: SIGXCPU, then SIGKILL. */
  readonly cpuSeconds: number;
  /** Processes and threads: a pids cgroup per call where one can be made, else RLIMIT_NPROC (not enforced for root). */
  readonly processes: number;
};

/** How limits are enforced here: prlimit's path, and a pids cgroup folder when this host lets the agent make one. */
export type LimitEnforcement = {
  readonly prlimitPath?: string;
  /** A cgroup (v1 pids hierarchy) under which each call gets its own child with `pids.max`. */
  readonly pidsCgroupDir?: string;
};

/**
 * How exec runs commands (and stdio MCP servers run): inside bubblewrap (`bwrap`: own PID namespace, system
 * read-only, workspace read-write, no network unless allowed, agent folders and files hidden, no UNIX sockets), or
 * without a sandbox, which only an explicit `tools.sandbox: off` allows. Limits apply in both modes.
 */
export type ExecSandbox = (
  | {
      readonly mode: 'bwrap';
      /** Absolute path of bwrap, or undefined when it is not installed (exec is then refused). */
      readonly bwrapPath: string | undefined;
      /** Whether commands may use the network (a shared network namespace). */
      readonly network: boolean;
      /** Folders hidden behind an empty tmpfs (the data folder, the agent's home, the project root, /run). */
      readonly hiddenPaths: readonly string[];
      /** Files replaced by an empty one (`.env`, the config files actually loaded). */
      readonly hiddenFiles?: readonly string[];
      /** Files inside a hidden folder the sandbox needs back read-only (resolv.conf when it lives in /run). */
      readonly restoredFiles?: readonly string[];
      /** A seccomp program file (createUnixSocketFilter) refusing UNIX sockets; none: UNIX sockets stay open. */
      readonly seccompFilterPath?: string;
    }
  | { readonly mode: 'off' }
) & { readonly enforcement?: LimitEnforcement };

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
export function buildSandboxedCommand(input: {
  readonly sandbox: ExecSandbox;
  readonly command: string;
  readonly workspaceDir: string;
  readonly limits?: SandboxLimits;
  /** This call's pids cgroup, joined before the sandbox starts. */
  readonly cgroupDir?: string;
}): { readonly ok: true; readonly command: SandboxedCommand } | { readonly ok: false; readonly error: string } {
  const { sandbox, command, workspaceDir } = input;
  const workspace = path.resolve(workspaceDir);
  const built = buildSandboxedProgram({
    sandbox,
    program: '/bin/sh',
    args: ['-c', command],
    workingDir: workspace,
    writable: [workspace],
    readOnly: [],
    network: sandbox.mode === 'bwrap' && sandbox.network,
    limits: input.limits,
    cgroupDir: input.cgroupDir,
  });
  return built.ok ? built : { ok: false, error: missingSandboxMessage };
}

/** One line for start-up and the doctor: which sandbox exec uses. Pure. */
export function describeExecSandbox(sandbox: ExecSandbox): string {
  if (sandbox.mode === 'off') return 'off: commands run without a sandbox (tools.sandbox: off)';
  if (sandbox.bwrapPath === undefined) return 'bwrap required but not installed: exec is refused (apt-get install bubblewrap)';
  const sockets = sandbox.seccompFilterPath === undefined ? '' : ', no UNIX sockets';
  return `bwrap (${sandbox.bwrapPath}), ${sandbox.network ? 'network allowed' : 'no network'}${sockets}`;
}
