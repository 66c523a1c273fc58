import { join } from 'node:path';
import { median } from './bench-statistics.js';
import type { BenchTree } from './bench-tree.js';
import { runJsonChild } from './run-json-child.js';

/** What one child reported. */
type ChildReport = {
  readonly sessions: number;
  readonly startedRssMb: number;
  readonly rssMb: number;
  readonly peakRssMb: number;
  readonly elapsedMs: number;
  readonly notCompleted: number;
  readonly durableIntake?: boolean;
};

/** What a child in `retained` mode reported. */
type RetainedReport = { readonly retainedBytesPerSession: number; readonly heapUsedMb: number; readonly notCompleted: number };

/** `memory.rss10kSessionsMb` and what came with it: medians over the runs. */
export type SessionsMemoryFigures = {
  readonly sessions: number;
  readonly rssMb: number;
  readonly peakRssMb: number;
  /** RSS of the same process after start-up, before any message. */
  readonly startedRssMb: number;
  readonly runsMb: readonly number[];
  readonly secondsPerRun: number;
  /** Whether turns entered through the durable intake (`app.accept`), or straight onto the bus (trees before issue 12). */
  readonly durableIntake: boolean;
  /** Heap in use after a full collection, after the sessions minus before them, per session (one run): what they keep alive. */
  readonly retainedBytesPerSession: number;
  /** Heap in use after that collection, after the sessions. */
  readonly heapUsedAfterMb: number;
};

function runChild<Report>(tree: BenchTree, args: readonly string[]): Promise<Report> {
  if (tree.harnessRoot === undefined) return Promise.reject(new Error(`the bench harness did not build against ${tree.label}`));
  return runJsonChild<Report>({ script: join(tree.harnessRoot, 'sessions-memory-child.js'), args, cwd: tree.repositoryRoot });
}

/**
 * Each run is a fresh child process (its own RSS, not the runner's) in which `sessions` sessions each
 * send one message. The runs go side by side: resident memory does not depend on speed, and the
 * wall time stays bounded. With several trees (`--against`), every tree's runs go side by side too,
 * started alternately; one result per tree, in order, each a failure of its own when its children failed. Then one
 * child per tree, side by side, measures the heap the sessions retain (after full collections, not resident memory).
 */
export async function runSessionsMemoryBench(options: { readonly sessions: number; readonly runs: number; readonly trees: readonly BenchTree[] }): Promise<PromiseSettledResult<SessionsMemoryFigures>[]> {
  const args = [String(options.sessions)];
  const children = Array.from({ length: options.runs }, () => options.trees.map((tree) => runChild<ChildReport>(tree, args)));
  const resident = await Promise.allSettled(options.trees.map((_tree, index) => Promise.all(children.map((perTree) => perTree[index] as Promise<ChildReport>))));
  const retained = await Promise.allSettled(options.trees.map((tree) => runChild<RetainedReport>(tree, [...args, '200', 'retained'])));
  return Promise.allSettled(
    options.trees.map(async (_tree, index) => {
      const reports = resident[index] as PromiseSettledResult<ChildReport[]>;
      const kept = retained[index] as PromiseSettledResult<RetainedReport>;
      if (reports.status === 'rejected') throw reports.reason;
      if (kept.status === 'rejected') throw kept.reason;
      return summarise(reports.value, kept.value, options.sessions);
    }),
  );
}

function summarise(reports: readonly ChildReport[], kept: RetainedReport, sessions: number): SessionsMemoryFigures {
  const incomplete = reports.reduce((total, report) => total + report.notCompleted, 0) + kept.notCompleted;
  if (incomplete > 0) throw new Error(`${incomplete} turns did not complete in the memory benchmark`);
  return {
    sessions,
    rssMb: median(reports.map((report) => report.rssMb)),
    peakRssMb: median(reports.map((report) => report.peakRssMb)),
    startedRssMb: median(reports.map((report) => report.startedRssMb)),
    runsMb: reports.map((report) => report.rssMb),
    secondsPerRun: median(reports.map((report) => report.elapsedMs)) / 1000,
    durableIntake: reports.every((report) => report.durableIntake === true),
    retainedBytesPerSession: kept.retainedBytesPerSession,
    heapUsedAfterMb: kept.heapUsedMb,
  };
}
