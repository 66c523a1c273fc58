/**
 * The benchmarks `--only` can pick, in the order a run takes them. `startup` includes its bare-bot floor and
 * the idle memory of the agents it started; `memory` is the 10k-sessions child (`memory.rss10kSessionsMb`);
 * `pipeline-memory` is the pipeline with `memory.enabled` (fact extraction, recall and compaction per turn).
 */
export const benchmarkNames = ['startup', 'registry', 'exec', 'pdf', 'pipeline', 'pipeline-memory', 'telegram', 'wechat', 'mcp', 'memory', 'cluster'] as const;

/** One benchmark `--only` can pick. */
export type BenchmarkName = (typeof benchmarkNames)[number];

/** Whether `name` is one of the benchmarks. */
export const isBenchmarkName = (name: string): name is BenchmarkName => (benchmarkNames as readonly string[]).includes(name);
