import { existsSync, realpathSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { McpServerConfig } from '../../src/config/config-schema.js';
import { buildSandboxedProgram } from '../build-sandboxed-program.js';
import { type ExecSandbox, findExecutable, type SandboxLimits } from '../exec-sandbox.js';

/** How a stdio server is started: the program (the sandbox launcher), its arguments, environment and folder. */
export type ServerLaunch = { readonly command: string; readonly args: readonly string[]; readonly env: Record<string, string>; readonly cwd: string };

/** What a stdio server's launch is built from. */
export type ServerLaunchRequest = {
  readonly server: McpServerConfig;
  readonly sandbox: ExecSandbox;
  /** PATH of the server (mcp.path). */
  readonly path: string;
  readonly timezone?: string;
  /** tools.limits: the memory and process ceilings a server has unless its own limits say otherwise. */
  readonly defaultLimits: SandboxLimits;
  /** This server's pids cgroup, joined before it starts. */
  readonly cgroupDir?: string;
  /** Variables the MCP client adds from the agent's own environment (HOME, USER, SHELL…): unset unless set here. */
  readonly inheritedNames?: readonly string[];
};

/** The sentence a stdio server is down with when the sandbox is required and bwrap is missing. */
export const missingServerSandboxMessage =
  'stdio MCP servers are refused: bubblewrap (bwrap) is not installed, so they cannot run in a sandbox. Install it ' +
  '(apt-get install bubblewrap), or set tools.sandbox: off (ECHO_EXEC_SANDBOX=off) to run them without one.';

/**
 * The launch of one stdio server in exec's sandbox: its own PID namespace, none of the agent's folders or config
 * files, network only with `network: true`, its `mounts` (read-only unless writable), its own program bound back
 * read-only, and only PATH, HOME, LANG, TZ and its configured `env` in its environment. A refusal (a sentence)
 * when bwrap is required and missing, or a mount does not exist.
 */
export function buildServerLaunch(request: ServerLaunchRequest): { readonly ok: true; readonly launch: ServerLaunch } | { readonly ok: false; readonly error: string } {
  const { server, sandbox } = request;
  const workingDir = path.resolve(server.cwd ?? process.cwd());
  const mounts = server.mounts.map((mount) => (typeof mount === 'string' ? { path: mount, writable: false } : mount));
  const missing = mounts.find((mount) => !existsSync(mount.path));
  if (missing !== undefined) return { ok: false, error: `its mount ${missing.path} does not exist` };
  const command = server.command ?? '';
  const env: Record<string, string> = {
    PATH: request.path,
    // In the sandbox /tmp is the server's own empty tmpfs: a writable home that shows nothing of the host.
    HOME: sandbox.mode === 'bwrap' ? '/tmp' : tmpdir(),
    LANG: 'C.UTF-8',
    ...(request.timezone === undefined ? {} : { TZ: request.timezone }),
    ...server.env,
  };
  const built = buildSandboxedProgram({
    sandbox,
    program: command,
    args: server.args,
    workingDir,
    writable: mounts.filter((mount) => mount.writable).map((mount) => mount.path),
    readOnly: [...programPaths({ command, args: server.args, workingDir, searchPath: request.path }), ...mounts.filter((mount) => !mount.writable).map((mount) => mount.path)],
    network: server.network,
    limits: {
      memoryMb: server.limits.memoryMb ?? request.defaultLimits.memoryMb,
      // A server lives for hours: its CPU time adds up over its whole life, so none unless configured.
      cpuSeconds: server.limits.cpuSeconds ?? 0,
      processes: server.limits.processes ?? request.defaultLimits.processes,
    },
    cgroupDir: request.cgroupDir,
    unsetEnvironment: (request.inheritedNames ?? []).filter((name) => !Object.hasOwn(env, name)),
  });
  if (!built.ok) return { ok: false, error: missingServerSandboxMessage };
  return { ok: true, launch: { command: built.command.file, args: built.command.args, env, cwd: existsSync(workingDir) ? workingDir : '/' } };
}

/**
 * The server's own program, bound back read-only in case it lives in a hidden folder (the project root, the home):
 * the command and every argument naming an existing file; a file inside `node_modules` brings that whole folder
 * (its dependencies), any other file only itself. Folders are never bound this way: they are `mounts`.
 */
function programPaths(input: { readonly command: string; readonly args: readonly string[]; readonly workingDir: string; readonly searchPath: string }): string[] {
  const executable = input.command.includes('/') ? path.resolve(input.workingDir, input.command) : findExecutable(input.command, input.searchPath);
  const candidates = [executable, ...input.args.filter((arg) => arg !== '' && !arg.startsWith('-')).map((arg) => path.resolve(input.workingDir, arg))];
  const bound = new Set<string>();
  for (const candidate of candidates) {
    if (candidate === undefined || !isFile(candidate)) continue;
    for (const file of new Set([candidate, realpathSync(candidate)])) bound.add(nodeModulesRoot(file) ?? file);
  }
  return [...bound];
}

function isFile(candidate: string): boolean {
  try {
    return statSync(candidate).isFile();
  } catch {
    return false;
  }
}

function nodeModulesRoot(file: string): string | undefined {
  const marker = `${path.sep}node_modules${path.sep}`;
  const at = file.indexOf(marker);
  return at === -1 ? undefined : file.slice(0, at + marker.length - 1);
}
