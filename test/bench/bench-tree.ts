import { compiledScript, repositoryRoot } from './bench-paths.js';

/** A tree whose figures a benchmark takes: this one, or the git ref of `--against` built in a temporary worktree. */
export type BenchTree = {
  /** `this`, or the ref as given on the command line. */
  readonly label: string;
  readonly isThisTree: boolean;
  /** Its checkout (config/default.yaml): the agents' working folder. */
  readonly repositoryRoot: string;
  /** Its compiled `src/app/main.js`, for the benchmarks that spawn the agent. */
  readonly mainScript: string;
  /** Its build of this tree's bench harness (`<root>/test/bench/*.js`), for the ones that import its modules; undefined when that build failed. */
  readonly harnessRoot: string | undefined;
  /** Whether it has cluster mode (PostgreSQL, pg-boss): its configuration knows `cluster`. */
  readonly hasClusterMode: boolean;
};

/** This tree, as built by `npm run bench` (tsconfig.bench.json into dist-bench/). */
export const thisTree: BenchTree = {
  label: 'this',
  isThisTree: true,
  repositoryRoot,
  mainScript: compiledScript('src/app/main.js'),
  harnessRoot: compiledScript('test/bench'),
  hasClusterMode: true,
};
