// `node in-process-bench-child.js <registry|pipeline|exec> '<options as JSON>'`: one in-process benchmark in a
// fresh process, its figures printed as one JSON line. `--against` runs it from each tree's build of this
// harness (its own src/ underneath), alternating the trees, so both are measured the same way.
import type { ExecBenchOptions } from './exec-bench.js';
import type { PipelineBenchOptions } from './pipeline-bench.js';
import type { RegistryBenchOptions } from './registry-bench.js';

const [name, optionsText = '{}'] = process.argv.slice(2);
const options = JSON.parse(optionsText) as unknown;

/** Each benchmark is imported only when asked for: a tree without a module one of them needs still runs the others. */
async function run(): Promise<unknown> {
  switch (name) {
    case 'registry':
      return (await import('./registry-bench.js')).runRegistryBench(options as RegistryBenchOptions);
    case 'pipeline':
      return (await import('./pipeline-bench.js')).runPipelineBench(options as PipelineBenchOptions);
    case 'exec':
      return (await import('./exec-bench.js')).runExecBench(options as ExecBenchOptions);
    default:
      throw new Error(`no in-process benchmark named ${name}`);
  }
}

process.stdout.write(`${JSON.stringify(await run())}\n`);
// A tree whose app leaves a handle open must not hang the run (stdout to a pipe is synchronous on Linux).
process.exit(0);
