import { execFileSync, spawn } from 'node:child_process';
import { resolve } from 'node:path';

/** The repository root. */
export const repositoryRoot = resolve(import.meta.dirname, '..', '..');

/** Builds dist/ when stale, exactly as `npm start` does before it runs. */
export function ensureBuilt(): void {
  execFileSync(process.execPath, [resolve(repositoryRoot, 'scripts', 'ensure-build.mjs')], { cwd: repositoryRoot, stdio: 'pipe' });
}

/** What a finished process printed and how it exited. */
export type ProcessResult = { readonly code: number | null; readonly stdout: string; readonly stderr: string };

/** Runs a command from the repository root to its end, in its own process group so a hung run is taken down whole. */
export function runProcess(
  command: string,
  args: readonly string[],
  options: { readonly environment?: Readonly<Record<string, string | undefined>>; readonly input?: string; readonly timeoutMs?: number } = {},
): Promise<ProcessResult> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, {
      cwd: repositoryRoot,
      env: (options.environment ?? process.env) as NodeJS.ProcessEnv,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const timer = setTimeout(() => {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      reject(new Error(`${command} ${args.join(' ')} did not finish in ${timeoutMs / 1000} s; stdout:\n${stdout}\nstderr:\n${stderr}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}

/** Runs `node dist/src/app/main.js <args>` from the repository root with the given environment and stdin. */
export function runCompiled(args: readonly string[], options: { readonly environment: Readonly<Record<string, string | undefined>>; readonly input?: string; readonly timeoutMs?: number }): Promise<ProcessResult> {
  return runProcess(process.execPath, [resolve(repositoryRoot, 'dist', 'src', 'app', 'main.js'), ...args], options);
}

/** The environment of this process without the variables a test wants unset. */
export function environmentWithout(...names: readonly string[]): Record<string, string | undefined> {
  const copy: Record<string, string | undefined> = { ...process.env };
  for (const name of names) delete copy[name];
  return copy;
}
