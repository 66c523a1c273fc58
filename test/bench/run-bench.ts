// `npm run bench [-- --json] [-- --quick] [-- --against <git ref>] [-- --only <benchmark>[,<benchmark>]]`:
// echo-agent's figures beside the goals and bare floors; with --against, the ref's figures from the same run
// beside them, and the ratios; with --only, just those benchmarks (the other figures null). Progress and the
// table go to stderr when --json is given, so stdout holds exactly one JSON object.
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { compiledScript, repositoryRoot } from './bench-paths.js';
import { createBenchPlan } from './bench-plan.js';
import type { BenchReport } from './bench-report.js';
import { roundTo } from './bench-statistics.js';
import { type BenchTree, thisTree } from './bench-tree.js';
import { describeMachine } from './describe-machine.js';
import { divideFigures } from './divide-figures.js';
import { formatReport } from './format-report.js';
import { measureTrees } from './measure-trees.js';
import { parseBenchArguments } from './parse-bench-arguments.js';
import { prepareRefTree, type RefTree } from './prepare-ref-tree.js';

const log = (line: string) => process.stderr.write(`${line}\n`);
const parsed = parseBenchArguments(process.argv.slice(2));
if (!parsed.ok) {
  log(parsed.error);
  process.exit(2);
}
const { json, quick, against, only } = parsed.value;
if (!existsSync(compiledScript('src/app/main.js'))) {
  log('The compiled app is missing: run `npm run bench`, which builds with tsconfig.bench.json first.');
  process.exit(2);
}

const started = performance.now();
let refTree: RefTree | undefined;
if (against !== undefined) {
  const prepared = await prepareRefTree({ ref: against, repositoryRoot, log });
  if (!prepared.ok) {
    log(`error: ${prepared.error}`);
    process.exit(2);
  }
  refTree = prepared.value;
  // An interrupted run still removes the worktree.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      void refTree?.remove().finally(() => process.exit(130));
    });
  }
}

const trees: BenchTree[] = refTree ? [thisTree, refTree.tree] : [thisTree];
const machine = describeMachine();
const loadAverage = loadavg().map((value) => roundTo(value, 2));
const plan = createBenchPlan(quick);
let measured: Awaited<ReturnType<typeof measureTrees>>;
try {
  measured = await measureTrees({ trees, plan, quick, cores: machine.cores, only, log });
} finally {
  await refTree?.remove();
}
const [own, ref] = measured.figures;
if (own === undefined) throw new Error('no figures for this tree');
const notes = [...measured.notes];
if (only !== undefined) notes.unshift(`--only ${only.join(',')}: the other benchmarks did not run, so their figures are null.`);
if (refTree) {
  notes.unshift(
    `against ${refTree.tree.label} (${refTree.commit.slice(0, 12)}): checked out in a temporary git worktree and built with its own \`npm run build\`; every benchmark ran for both trees in this run, alternately (A B, B A… per run), with this tree's bench harness: the process-level ones (start-up, idle memory, Telegram, cluster) spawn each tree's dist/src/app/main.js, the in-process ones (registry, pipeline, exec, the sessions-memory child) run from this harness built over each tree's sources. Ratios are this tree / ${refTree.tree.label}.`,
    ...refTree.notes,
  );
}

const report: BenchReport = {
  machine: { ...machine, loadAverage, loadAverageAtEnd: loadavg().map((value) => roundTo(value, 2)) },
  quick,
  ...own,
  notes,
  durationSeconds: roundTo((performance.now() - started) / 1000, 1),
  ...(refTree && ref ? { against: { ref: refTree.tree.label, commit: refTree.commit, figures: ref, ratios: divideFigures(own, ref) } } : {}),
};

if (json) {
  process.stderr.write(formatReport(report));
  process.stdout.write(`${JSON.stringify(report)}\n`);
} else {
  process.stdout.write(formatReport(report));
}
