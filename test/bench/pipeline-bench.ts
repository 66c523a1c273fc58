import { median, percentile } from './bench-statistics.js';
import { driveClosedLoop, driveOpenLoop, intakeOf } from './drive-turns.js';
import { createInstantModel } from './instant-model.js';
import { startBenchApp } from './start-bench-app.js';

/** How the pipeline benchmark runs. */
export type PipelineBenchOptions = {
  readonly runs: number;
  /** Distinct sessions (users) in every phase. */
  readonly sessions: number;
  /** Length of the throughput phase of each run. */
  readonly throughputMs: number;
  /** Length of the latency phase of each run. */
  readonly latencyMs: number;
  readonly warmupMs: number;
  /** `memory.enabled`: each turn also recalls facts before the model call, and extracts facts (and compacts) after the answer. */
  readonly memory?: boolean;
};

/** The pipeline figures: medians over the runs. */
export type PipelineFigures = {
  readonly turnsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** The arrival rate of the latency phase (half the measured throughput). */
  readonly latencyRate: number;
  /** Latency percentiles of the throughput phase, where every user always waits for an answer (queueing included). */
  readonly saturatedP50Ms: number;
  readonly saturatedP99Ms: number;
  /** Turns that did not complete, over every run (should be 0). */
  readonly notCompleted: number;
  /** Whether turns entered through the durable intake (`app.accept`), or straight onto the bus (trees before issue 12). */
  readonly durableIntake: boolean;
};

/**
 * Turns through the real bus, agent loop, registry, policy, approval gate, replay guard, audit log
 * and SQLite store, with an instant in-process model that makes one `todo` call per turn.
 * Each run: a throughput phase where every one of `sessions` users sends its next message as soon as
 * it has its answer (the runtime saturated: turnsPerSecond), then a latency phase where messages arrive
 * at half that rate (p50Ms, p99Ms: what the runtime adds per turn when it is not the queue). Fresh
 * sessions every phase; the app is warmed up first.
 */
export async function runPipelineBench(options: PipelineBenchOptions): Promise<PipelineFigures> {
  const bench = await startBenchApp({ model: createInstantModel(), ...(options.memory === true ? { yaml: 'memory:\n  enabled: true\n' } : {}) });
  try {
    const closed = (durationMs: number, chatPrefix: string) =>
      driveClosedLoop(bench.app, { sessions: options.sessions, concurrency: options.sessions, durationMs, maxTurns: Number.POSITIVE_INFINITY, chatPrefix });
    await closed(options.warmupMs, 'warmup-');
    const throughputs: number[] = [];
    const rates: number[] = [];
    const saturated = { p50: [] as number[], p99: [] as number[] };
    const open = { p50: [] as number[], p99: [] as number[] };
    let notCompleted = 0;
    for (let run = 0; run < options.runs; run += 1) {
      const throughput = await closed(options.throughputMs, `run${run}-t-`);
      const turnsPerSecond = (throughput.turns / throughput.elapsedMs) * 1000;
      throughputs.push(turnsPerSecond);
      saturated.p50.push(percentile(throughput.latenciesMs, 50));
      saturated.p99.push(percentile(throughput.latenciesMs, 99));
      const rate = turnsPerSecond / 2;
      rates.push(rate);
      const latency = await driveOpenLoop(bench.app, { sessions: options.sessions, turnsPerSecond: rate, durationMs: options.latencyMs, chatPrefix: `run${run}-l-` });
      open.p50.push(percentile(latency.latenciesMs, 50));
      open.p99.push(percentile(latency.latenciesMs, 99));
      notCompleted += throughput.notCompleted + latency.notCompleted;
    }
    return {
      turnsPerSecond: median(throughputs),
      p50Ms: median(open.p50),
      p99Ms: median(open.p99),
      latencyRate: median(rates),
      saturatedP50Ms: median(saturated.p50),
      saturatedP99Ms: median(saturated.p99),
      notCompleted,
      durableIntake: intakeOf(bench.app).durable,
    };
  } finally {
    await bench.stop();
  }
}
