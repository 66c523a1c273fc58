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

/** Runs `node dist/src/app/main.js <args>` from the repository root with the given environment and stdin. */
export function runCompiled(args: readonly string[], options: { readonly environment: Readonly<Record<string, string | undefined>>; readonly input?: string; readonly timeoutMs?: number }): Promise<ProcessResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [resolve(repositoryRoot, 'dist', 'src', 'app', 'main.js'), ...args], {
      cwd: repositoryRoot,
      env: options.environment as NodeJS.ProcessEnv,
      stdio: ['pipe', 'pipe', 'pipe'],
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
      child.kill('SIGKILL');
      reject(new Error(`process did not exit in time; stdout so far: ${stdout}; stderr: ${stderr}`));
    }, options.timeoutMs ?? 30_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}

/** The environment of this process without the variables a test wants unset. */
export function environmentWithout(...names: readonly string[]): Record<string, string | undefined> {
  const copy: Record<string, string | undefined> = { ...process.env };
  for (const name of names) delete copy[name];
  return copy;
}
