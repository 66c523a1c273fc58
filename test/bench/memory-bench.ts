import { spawn } from 'node:child_process';
import { median } from './bench-statistics.js';
import { compiledScript, repositoryRoot } from './bench-paths.js';

/** What one child reported. */
type ChildReport = { readonly sessions: number; readonly startedRssMb: number; readonly rssMb: number; readonly peakRssMb: number; readonly elapsedMs: number; readonly notCompleted: number };

/** `memory.rss10kSessionsMb` and what came with it: medians over the runs. */
export type SessionsMemoryFigures = {
  readonly sessions: number;
  readonly rssMb: number;
  readonly peakRssMb: number;
  /** RSS of the same process after start-up, before any message. */
  readonly startedRssMb: number;
  readonly runsMb: readonly number[];
  readonly secondsPerRun: number;
};

const childScript = compiledScript('test/bench/sessions-memory-child.js');

function runChild(sessions: number): Promise<ChildReport> {
  return new Promise((resolve, reject) => {
    const environment = process.env.BENCH_CHILD_NODE_OPTIONS ? { ...process.env, NODE_OPTIONS: process.env.BENCH_CHILD_NODE_OPTIONS } : process.env;
    const child = spawn(process.execPath, [childScript, String(sessions)], { cwd: repositoryRoot, env: environment, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-4000);
    });
    child.on('exit', (code) => {
      const line = stdout.split('\n').find((text) => text.startsWith('{'));
      if (code !== 0 || line === undefined) reject(new Error(`the memory child failed (exit ${code}): ${stderr}`));
      else resolve(JSON.parse(line) as ChildReport);
    });
  });
}

/**
 * Each run is a fresh child process (its own RSS, not the runner's) in which `sessions` sessions each
 * send one message. The runs go side by side: resident memory does not depend on speed, and the
 * wall time stays bounded.
 */
export async function runSessionsMemoryBench(options: { readonly sessions: number; readonly runs: number }): Promise<SessionsMemoryFigures> {
  const reports = await Promise.all(Array.from({ length: options.runs }, () => runChild(options.sessions)));
  const incomplete = reports.reduce((total, report) => total + report.notCompleted, 0);
  if (incomplete > 0) throw new Error(`${incomplete} turns did not complete in the memory benchmark`);
  return {
    sessions: options.sessions,
    rssMb: median(reports.map((report) => report.rssMb)),
    peakRssMb: median(reports.map((report) => report.peakRssMb)),
    startedRssMb: median(reports.map((report) => report.startedRssMb)),
    runsMb: reports.map((report) => report.rssMb),
    secondsPerRun: median(reports.map((report) => report.elapsedMs)) / 1000,
  };
}
