import { existsSync, lstatSync, mkdirSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createUnixSocketFilter, defaultExecPath, type ExecSandbox, findExecutable, findPidsCgroupDir, type LimitEnforcement } from '../../tools/index.js';
import type { Config } from '../config/config-schema.js';

/** What the sandbox must hide besides the config's own folders: the project root and the files the config came from. */
export type SandboxSources = {
  /** The project root config was loaded from (default the current folder); hidden when it holds config/default.yaml. */
  readonly root?: string;
  /** Every file the configuration was read from (loadConfig's `loadedFiles`): hidden wherever they live. */
  readonly loadedFiles?: readonly string[];
};

// Folders holding host sockets and runtime secrets (/run/secrets, /run/postgresql, /run/docker.sock, D-Bus).
const runtimeFolders = ['/run', '/var/run'];

/**
 * The sandbox exec runs commands and stdio MCP servers run in: bubblewrap hiding the agent's data, home, project,
 * runtime folders and loaded config files, refusing UNIX sockets, or none when configured off. Limits hold either way.
 */
export function execSandboxFor(config: Config, sources: SandboxSources = {}): ExecSandbox {
  const enforcement: LimitEnforcement = { prlimitPath: findExecutable('prlimit', `${config.tools.execPath}:${defaultExecPath}`), pidsCgroupDir: findPidsCgroupDir() };
  if (config.tools.sandbox === 'off') return { mode: 'off', enforcement };
  const root = resolve(sources.root ?? process.cwd());
  const secretFiles = [...(sources.loadedFiles ?? []), join(root, '.env'), join(root, 'config', 'local.yaml')].filter((file) => existsSync(file)).map((file) => realpathSync(file));
  const isProjectRoot = root !== '/' && existsSync(join(root, 'config', 'default.yaml'));
  const hiddenRuntime = runtimeFolders.filter((folder) => isRealFolder(folder));
  return {
    mode: 'bwrap',
    bwrapPath: findExecutable('bwrap', `${config.tools.execPath}:${defaultExecPath}`),
    network: config.tools.sandboxNetwork,
    hiddenPaths: [resolve(config.storage.dataDir), homedir(), ...(isProjectRoot ? [root] : []), ...hiddenRuntime],
    hiddenFiles: [...new Set(secretFiles)],
    restoredFiles: resolverFiles(hiddenRuntime),
    seccompFilterPath: writeSeccompFilter(config.storage.dataDir),
    enforcement,
  };
}

function isRealFolder(folder: string): boolean {
  try {
    return lstatSync(folder).isDirectory();
  } catch {
    return false;
  }
}

/** /etc/resolv.conf often points into /run (systemd-resolved): it comes back read-only, so DNS still works with network. */
function resolverFiles(hidden: readonly string[]): string[] {
  try {
    const target = realpathSync('/etc/resolv.conf');
    return hidden.some((folder) => target.startsWith(`${folder}/`)) ? [target] : [];
  } catch {
    return [];
  }
}

/** Writes the UNIX-socket seccomp program into the data folder (read by the launcher outside the sandbox); undefined on other CPUs. */
function writeSeccompFilter(dataDir: string): string | undefined {
  const program = createUnixSocketFilter(process.arch);
  if (program === undefined) return undefined;
  const file = join(resolve(dataDir), 'sandbox', 'unix-socket-filter.bpf');
  try {
    mkdirSync(dirname(file), { recursive: true });
    const temporary = `${file}.${process.pid}`;
    writeFileSync(temporary, program);
    renameSync(temporary, file);
    return file;
  } catch {
    // A data folder that cannot be written fails the start anyway (and the doctor says why); the sandbox says "UNIX sockets open".
    return undefined;
  }
}
