/** Sizes of each benchmark; --quick trades runs and load for time (and says so in the notes). */
export type BenchPlan = {
  readonly runs: number;
  readonly startupRuns: number;
  readonly wechatRuns: number;
  readonly idleMs: number;
  readonly sessions10k: number;
  readonly registryMs: number;
  readonly pipelineThroughputMs: number;
  readonly pipelineLatencyMs: number;
  readonly telegramSenders: number;
  readonly concurrentEach: number;
  readonly sequentialMessages: number;
  readonly clusterSenders: number;
  readonly clusterKills: number;
};

/** The plan of a full run, or of `--quick`. */
export function createBenchPlan(quick: boolean): BenchPlan {
  return quick
    ? { runs: 1, startupRuns: 1, wechatRuns: 1, idleMs: 10_000, sessions10k: 1_000, registryMs: 700, pipelineThroughputMs: 1_500, pipelineLatencyMs: 1_000, telegramSenders: 100, concurrentEach: 2, sequentialMessages: 3, clusterSenders: 50, clusterKills: 1 }
    : { runs: 3, startupRuns: 5, wechatRuns: 3, idleMs: 30_000, sessions10k: 10_000, registryMs: 1_000, pipelineThroughputMs: 2_000, pipelineLatencyMs: 1_500, telegramSenders: 200, concurrentEach: 3, sequentialMessages: 5, clusterSenders: 100, clusterKills: 3 };
}

/** The cluster benchmark's fixed sizes: the model's delay, the steady load of the recovery phase, how long a killed instance stays dead. */
export const clusterLoad = { messagesEach: 2, modelDelayMs: 50, steadyChats: 30, everyMs: 100, deadForMs: 2_000, settleMs: 5_000 } as const;
