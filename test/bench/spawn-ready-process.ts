import { type ChildProcess, spawn } from 'node:child_process';

/** A child process that printed its ready line. */
export type ReadyProcess = {
  readonly child: ChildProcess;
  readonly pid: number;
  /** From spawn to the ready line, in milliseconds. */
  readonly readyMs: number;
  /** performance.now() when the ready line arrived. */
  readonly readyAt: number;
  /** Everything printed so far (stdout and stderr), for error messages. */
  output(): string;
  /** Sends a signal and waits for the exit (SIGKILL after `graceMs`). */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<void>;
};

/** What to run and when it counts as ready. */
export type SpawnReadyOptions = {
  readonly script: string;
  readonly args?: readonly string[];
  readonly environment: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** A line on stdout containing this text means ready. */
  readonly readyText: string;
  readonly timeoutMs?: number;
  /** Extra node flags (e.g. --cpu-prof). */
  readonly nodeFlags?: readonly string[];
};

/** Spawns `node <script>` and resolves when its stdout shows the ready text; rejects (and kills it) when it exits or times out first. */
export function spawnReadyProcess(options: SpawnReadyOptions): Promise<ReadyProcess> {
  const started = performance.now();
  const child = spawn(process.execPath, [...(options.nodeFlags ?? []), options.script, ...(options.args ?? [])], {
    cwd: options.cwd,
    env: options.environment as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let exited = false;
  const exit = new Promise<void>((resolve) => {
    child.once('exit', () => {
      exited = true;
      resolve();
    });
  });
  // Only the tail is kept: a chatty child must not grow the runner's memory.
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-20_000);
  };
  child.stderr?.on('data', keep);

  const stop = async (signal: NodeJS.Signals = 'SIGTERM', graceMs = 5000): Promise<void> => {
    if (exited) return;
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exit;
    clearTimeout(timer);
  };

  return new Promise<ReadyProcess>((resolve, reject) => {
    let ready = false;
    const timer = setTimeout(() => {
      if (ready) return;
      void stop('SIGKILL');
      reject(new Error(`${options.script} was not ready within ${options.timeoutMs ?? 30_000} ms; output:\n${output.slice(-2000)}`));
    }, options.timeoutMs ?? 30_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      keep(chunk);
      if (!ready && output.includes(options.readyText)) {
        ready = true;
        const readyAt = performance.now();
        clearTimeout(timer);
        resolve({ child, pid: child.pid ?? -1, readyMs: readyAt - started, readyAt, output: () => output, stop });
      }
    });
    void exit.then(() => {
      if (ready) return;
      clearTimeout(timer);
      reject(new Error(`${options.script} exited before it was ready; output:\n${output.slice(-2000)}`));
    });
  });
}
