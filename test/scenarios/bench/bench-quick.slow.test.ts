import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { repositoryRoot } from '../../fakes/run-compiled.js';

const run = promisify(execFile);

// Built into dist-bench/ (ignored by git), not dist/, so that rewriting it never races the other tests
// that run dist/src/app/main.js.
const outDir = join(repositoryRoot, 'dist-bench');

/** Every figure the bench promises (issues 9 and 25); each is a number, or null when a note says why. */
const keys = {
  pipeline: ['turnsPerSecond', 'p50Ms', 'p99Ms'],
  telegram: ['messagesPerSecond', 'p99Ms', 'bareMessagesPerSecond', 'ratioToBare', 'ratioToModelFloor', 'sequentialMedianMs', 'concurrent50MessagesPerSecond'],
  registry: ['microsPerCall'],
  startup: ['readyMs', 'ratioToBareBot', 'readyMsWithWechat', 'readyMsWithMcp'],
  memory: ['idleRssMb', 'idleOverBareBotMb', 'rss10kSessionsMb'],
  cluster: ['messagesPerSecond1', 'messagesPerSecond3', 'ratio3to1', 'ratio1ToStandalone', 'medianRecoverySeconds', 'maxRecoverySeconds'],
} as const;

describe('npm run bench -- --quick --json', () => {
  it('completes and prints one JSON object with every figure, each a number or null with a note', async () => {
    await run(process.execPath, [join(repositoryRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.bench.json'], { cwd: repositoryRoot });

    const { stdout } = await run(process.execPath, [join(outDir, 'test', 'bench', 'run-bench.js'), '--quick', '--json'], { cwd: repositoryRoot, maxBuffer: 16 * 1024 * 1024, timeout: 340_000 });
    const report = JSON.parse(stdout) as Record<string, unknown> & { notes: string[]; quick: boolean; machine: { cores: number; nodeVersion: string }; details: Record<string, unknown> };

    expect(report.quick).toBe(true);
    expect(report.machine.cores).toBeGreaterThan(0);
    expect(report.machine.nodeVersion).toMatch(/^v\d+/);
    const missing: string[] = [];
    for (const [section, names] of Object.entries(keys)) {
      const figures = report[section] as Record<string, unknown> | undefined;
      for (const name of names) {
        const value = figures?.[name];
        const explained = value === null && report.notes.some((note) => note.includes('could not be measured'));
        if (!((typeof value === 'number' && Number.isFinite(value)) || explained)) missing.push(`${section}.${name} = ${JSON.stringify(value)}`);
      }
    }
    expect(missing).toEqual([]);
    // What the sessions keep alive on the heap, measured apart from resident memory (which the collector's timing moves).
    expect(Number.isFinite(report.details['memory.retainedBytesPerSession'])).toBe(true);
    // --quick measures fewer sessions and says so.
    expect(report.notes.some((note) => note.includes('--quick'))).toBe(true);
  }, 360_000);

  // A whole run against a ref (a worktree, its build, every benchmark twice) takes minutes: only its refusal is checked here.
  it('refuses --against a ref that does not exist with one line and exit code 2', async () => {
    await run(process.execPath, [join(repositoryRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.bench.json'], { cwd: repositoryRoot });
    const failure = await run(process.execPath, [join(outDir, 'test', 'bench', 'run-bench.js'), '--quick', '--against', 'no-such-ref-anywhere'], { cwd: repositoryRoot }).then(
      () => undefined,
      (error: unknown) => error as { code?: number; stdout?: string; stderr?: string },
    );
    expect(failure?.code).toBe(2);
    expect(failure?.stdout).toBe('');
    expect(failure?.stderr?.trim().split('\n')).toEqual([`error: --against no-such-ref-anywhere: no such git ref in ${repositoryRoot}`]);
  }, 120_000);
});
