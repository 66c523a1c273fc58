import { spawn } from 'node:child_process';

/**
 * Runs `node <script> <args>` to its end and parses the last line of its stdout that starts with `{`
 * (a benchmark child prints its figures as one JSON line). BENCH_CHILD_NODE_OPTIONS becomes the child's
 * NODE_OPTIONS (to profile it). Rejects with the tail of its stderr when it fails or prints no JSON.
 */
export function runJsonChild<T>(options: { readonly script: string; readonly args: readonly string[]; readonly cwd: string }): Promise<T> {
  return new Promise((resolve, reject) => {
    const environment = process.env.BENCH_CHILD_NODE_OPTIONS ? { ...process.env, NODE_OPTIONS: process.env.BENCH_CHILD_NODE_OPTIONS } : process.env;
    const child = spawn(process.execPath, [options.script, ...options.args], { cwd: options.cwd, env: environment, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-4000);
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      const line = stdout
        .split('\n')
        .filter((text) => text.startsWith('{'))
        .at(-1);
      if (code !== 0 || line === undefined) {
        // The thrown error's own line says most (a missing module, a missing function); else the last lines.
        const lines = stderr.split('\n').filter((text) => text.trim() !== '' && !text.trimStart().startsWith('at '));
        const reason = lines.find((text) => /^\w*Error\b/.test(text.trim()))?.trim() ?? lines.slice(-3).join(' | ');
        reject(new Error(`${options.script} failed (exit ${code}): ${reason || 'no output'}`));
      } else resolve(JSON.parse(line) as T);
    });
  });
}
