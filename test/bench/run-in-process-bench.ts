import { join } from 'node:path';
import type { BenchTree } from './bench-tree.js';
import type { ExecBenchOptions, ExecFigures } from './exec-bench.js';
import type { PipelineBenchOptions, PipelineFigures } from './pipeline-bench.js';
import type { RegistryBenchOptions, RegistryFigures } from './registry-bench.js';
import { runJsonChild } from './run-json-child.js';

/** The in-process benchmarks a child can run, with their options and figures. */
export type InProcessBenchmarks = {
  readonly registry: { readonly options: RegistryBenchOptions; readonly figures: RegistryFigures };
  readonly pipeline: { readonly options: PipelineBenchOptions; readonly figures: PipelineFigures };
  readonly exec: { readonly options: ExecBenchOptions; readonly figures: ExecFigures };
};

/** Runs one in-process benchmark in a fresh child process from the tree's build of the harness (test/bench/in-process-bench-child.ts). */
export function runInProcessBench<Name extends keyof InProcessBenchmarks>(tree: BenchTree, name: Name, options: InProcessBenchmarks[Name]['options']): Promise<InProcessBenchmarks[Name]['figures']> {
  if (tree.harnessRoot === undefined) return Promise.reject(new Error(`the bench harness did not build against ${tree.label}`));
  return runJsonChild({ script: join(tree.harnessRoot, 'in-process-bench-child.js'), args: [name, JSON.stringify(options)], cwd: tree.repositoryRoot });
}
