import { spawn } from 'node:child_process';

/** Whether bwrap can build the sandbox exec uses on this machine (namespaces allowed), and why not. */
export type BubblewrapProbe = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/** Runs `true` in a sandbox like exec's (PID and network namespaces, read-only root); resolves within `timeoutMs`. */
export function probeBubblewrap(input: { readonly bwrapPath: string; readonly timeoutMs: number }): Promise<BubblewrapProbe> {
  return new Promise((resolve) => {
    const child = spawn(input.bwrapPath, ['--die-with-parent', '--unshare-pid', '--unshare-net', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '/bin/sh', '-c', 'true'], {
      env: { PATH: '/usr/bin:/bin' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve({ ok: false, reason: `bwrap did not finish within ${input.timeoutMs / 1000} s` });
    }, input.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ ok: false, reason: error.message });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(code === 0 ? { ok: true } : { ok: false, reason: stderr.trim().split('\n')[0] || `exit code ${code}` });
    });
  });
}
