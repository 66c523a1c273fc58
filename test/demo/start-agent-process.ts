import { spawn } from 'node:child_process';
import { join } from 'node:path';

/** How the agent process ended. */
export type AgentExit = { readonly code: number | null; readonly signal: NodeJS.Signals | null };

/** echo-agent running as `node dist/src/app/main.js start`, past its "echo-agent is running" line. */
export type AgentProcess = {
  readonly pid: number;
  /** What it printed on stdout up to and including the ready line. */
  readonly startupLines: readonly string[];
  /** Its stderr so far (the tail), for failure reports. */
  stderr(): string;
  /** Resolves when the process exits, whoever stopped it. */
  readonly exited: Promise<AgentExit>;
  /** Sends SIGTERM, waits for the exit (SIGKILL after `graceMs`), and says how it ended; `signalled` is false when it had already exited. */
  stop(graceMs?: number): Promise<AgentExit & { readonly signalled: boolean; readonly killed: boolean }>;
};

/** Where and how to start it. */
export type StartAgentOptions = {
  readonly repositoryRoot: string;
  readonly environment: Readonly<Record<string, string>>;
  /** A YAML file given as `--config` (it takes the place of config/local.yaml). */
  readonly configFile: string;
  /** The compiled entry point; default `dist/src/app/main.js` under the repository root (the bench passes its own build's). */
  readonly script?: string;
  readonly readyTimeoutMs?: number;
  /** Aborting it stops the wait for the ready line (the process is killed). */
  readonly signal?: AbortSignal;
};

const readyText = 'echo-agent is running';
const keptOutput = 20_000;

/** Spawns `node dist/src/app/main.js start --config FILE` (or `options.script`) and resolves once it says it is running; rejects with its stderr when it exits or times out first. */
export function startAgentProcess(options: StartAgentOptions): Promise<AgentProcess> {
  if (options.signal?.aborted) return Promise.reject(options.signal.reason);
  const child = spawn(process.execPath, [options.script ?? join(options.repositoryRoot, 'dist', 'src', 'app', 'main.js'), 'start', '--config', options.configFile], {
    cwd: options.repositoryRoot,
    env: options.environment,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let exit: AgentExit | undefined;
  const exited = new Promise<AgentExit>((resolve) => {
    const settle = (ended: AgentExit) => {
      exit ??= ended;
      resolve(exit);
    };
    child.once('exit', (code, signal) => settle({ code, signal }));
    // A process that could not be spawned emits 'error' and may never emit 'exit'.
    child.once('error', (error) => {
      stderr += `\n${error.message}`;
      settle({ code: null, signal: null });
    });
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-keptOutput);
  });

  const stop = async (graceMs = 15_000) => {
    if (exit !== undefined) return { ...exit, signalled: false, killed: false };
    child.kill('SIGTERM');
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, graceMs);
    const result = await exited;
    clearTimeout(timer);
    return { ...result, signalled: true, killed };
  };

  return new Promise<AgentProcess>((resolve, reject) => {
    let ready = false;
    let failed = false;
    const fail = (reason: string) => {
      if (failed) return;
      failed = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      void stop(2000).then(() => reject(new Error(`${reason}${describeOutput(stdout, stderr)}`)));
    };
    const onAbort = () => fail('stopped while echo-agent was starting');
    const timeoutMs = options.readyTimeoutMs ?? 30_000;
    const timer = setTimeout(() => fail(`echo-agent did not say "${readyText}" within ${timeoutMs / 1000} s`), timeoutMs);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => {
      stdout = (stdout + chunk.toString('utf8')).slice(-keptOutput);
      if (ready || !stdout.includes(readyText)) return;
      ready = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      const lines = stdout.split('\n');
      const readyIndex = lines.findIndex((line) => line.includes(readyText));
      resolve({ pid: child.pid ?? -1, startupLines: lines.slice(0, readyIndex + 1).filter((line) => line.trim() !== ''), stderr: () => stderr, exited, stop });
    });
    void exited.then((result) => {
      if (ready) return;
      fail(`echo-agent exited before it was running (${describeExit(result)})`);
    });
  });
}

/** `exit code 1` or `signal SIGKILL`. */
export function describeExit(exit: AgentExit): string {
  return exit.signal !== null ? `signal ${exit.signal}` : `exit code ${exit.code ?? 'unknown'}`;
}

function describeOutput(stdout: string, stderr: string): string {
  const parts: string[] = [];
  if (stdout.trim() !== '') parts.push(`its stdout:\n${indent(stdout.trim())}`);
  parts.push(stderr.trim() === '' ? 'its stderr was empty' : `its stderr:\n${indent(stderr.trim())}`);
  return `; ${parts.join('\n')}`;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
}
