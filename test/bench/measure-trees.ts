import { isPostgresUp } from '../contracts/scratch-postgres.js';
import { createScriptedModelServer } from '../fakes/scripted-model-server.js';
import { startTelegramEmulator } from '../fakes/telegram-emulator.js';
import { alternate } from './alternate.js';
import type { Figure, TreeFigures } from './bench-report.js';
import { type BenchPlan, clusterLoad } from './bench-plan.js';
import { median, roundTo } from './bench-statistics.js';
import type { BenchTree } from './bench-tree.js';
import type { BenchmarkName } from './benchmark-names.js';
import { runClusterBench } from './cluster-bench.js';
import { runExecBench } from './exec-bench.js';
import { runPdfBench } from './pdf-bench.js';
import { measureStartWithMcp, startMcpServers } from './mcp-startup-bench.js';
import { runSessionsMemoryBench } from './memory-bench.js';
import { runPipelineBench } from './pipeline-bench.js';
import { runRegistryBench } from './registry-bench.js';
import { type InProcessBenchmarks, runInProcessBench } from './run-in-process-bench.js';
import { measureIdleMemory, measureStartWithWechat, runStartupBench } from './startup-bench.js';
import { runTelegramBench } from './telegram-bench.js';
import { clusterNote, pipelineMemoryNote, pipelineNote, registryNote, telegramNote } from './bench-notes.js';

type Writable<T> = { -readonly [K in keyof T]: T[K] };
type FigureSheet = { -readonly [S in keyof TreeFigures]: Writable<TreeFigures[S]> } & { details: Record<string, Figure> };

/** Every figure of one tree, null until measured. */
function emptySheet(): FigureSheet {
  return {
    pipeline: { turnsPerSecond: null, p50Ms: null, p99Ms: null },
    telegram: { messagesPerSecond: null, p99Ms: null, bareMessagesPerSecond: null, ratioToBare: null, ratioToModelFloor: null, sequentialMedianMs: null, concurrent50MessagesPerSecond: null },
    registry: { microsPerCall: null },
    startup: { readyMs: null, ratioToBareBot: null, readyMsWithWechat: null, readyMsWithMcp: null },
    memory: { idleRssMb: null, idleOverBareBotMb: null, rss10kSessionsMb: null },
    cluster: { messagesPerSecond1: null, messagesPerSecond3: null, ratio3to1: null, ratio1ToStandalone: null, medianRecoverySeconds: null, maxRecoverySeconds: null },
    details: {},
  };
}

/** A figure rounded for the report; null when it could not be measured. */
export const round = (value: number | undefined, decimals = 2): Figure => (value === undefined || !Number.isFinite(value) ? null : roundTo(value, decimals));

/** An error as one line for a note (a child's output can run to many lines). */
const reasonOf = (error: unknown) => {
  const text = (error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*/g, ' ').trim();
  return text.length > 400 ? `${text.slice(0, 400)}…` : text;
};

/** What `measureTrees` was asked to do. */
export type MeasureOptions = {
  /** This tree first, then the ref of `--against` (if any). */
  readonly trees: readonly BenchTree[];
  readonly plan: BenchPlan;
  readonly quick: boolean;
  readonly cores: number;
  /** The benchmarks to run (`--only`); undefined runs them all. */
  readonly only?: readonly BenchmarkName[] | undefined;
  readonly log: (line: string) => void;
};

/**
 * Runs every benchmark for every tree, alternately where there are two (A B, B A…, per run), and
 * returns each tree's figures (in the order of `trees`) with the notes: how each was taken, and why
 * any is null. A benchmark that fails becomes null figures and a note, never a crash of the whole run.
 */
export async function measureTrees(options: MeasureOptions): Promise<{ readonly figures: readonly TreeFigures[]; readonly notes: readonly string[] }> {
  const { trees, plan, quick, log } = options;
  const against = trees.length > 1;
  const sheets = trees.map(() => emptySheet());
  const [own] = sheets as [FigureSheet];
  const notes: string[] = [];
  const runsNote = (runs: number) => (runs === 1 ? `1 run${quick ? ' (--quick)' : ''}` : `median of ${runs} runs`);
  const failed = (tree: BenchTree, name: string, error: unknown) =>
    notes.push(
      tree.isThisTree ? `${name} could not be measured (its figures are null): ${reasonOf(error)}` : `against ${tree.label}: ${name} could not be measured there, so it is not comparable (its figures are null): ${reasonOf(error)}`,
    );
  /** Each tree's result of a benchmark, or its failure as a note. */
  const eachTree = <T>(name: string, results: readonly PromiseSettledResult<T>[], use: (sheet: FigureSheet, value: T, tree: BenchTree) => void) => {
    trees.forEach((tree, index) => {
      const result = results[index];
      if (result?.status === 'fulfilled') use(sheets[index] as FigureSheet, result.value, tree);
      else failed(tree, name, result?.reason ?? 'no result');
    });
  };
  /** Runs one benchmark (unless `--only` left it out: then undefined, as if it had failed, but without a note). */
  async function attempt<T>(benchmark: BenchmarkName, name: string, work: () => Promise<T>): Promise<T | undefined> {
    if (options.only !== undefined && !options.only.includes(benchmark)) return undefined;
    log(`• ${name}...`);
    const begun = performance.now();
    try {
      const result = await work();
      log(`  done in ${((performance.now() - begun) / 1000).toFixed(1)} s`);
      return result;
    } catch (error) {
      for (const tree of trees) failed(tree, name, error);
      log(`  failed: ${reasonOf(error)}`);
      return undefined;
    }
  }
  /** An in-process benchmark: in this process with all its runs (`local`), or (against a ref) in a fresh child per tree and run, the trees alternating. */
  const inProcess = async <Name extends keyof InProcessBenchmarks>(name: Name, one: InProcessBenchmarks[Name]['options'], runs: number, local: () => Promise<InProcessBenchmarks[Name]['figures']>) =>
    against
      ? alternate(
          trees.map((tree) => ({ label: tree.label, measure: () => runInProcessBench(tree, name, one) })),
          runs,
        )
      : [{ status: 'fulfilled' as const, value: [await local()] }];
  const childNote = against ? ' Against a ref, each run is a fresh child process per tree (test/bench/in-process-bench-child.ts), the trees alternating.' : '';

  const model = await createScriptedModelServer();
  const emulator = await startTelegramEmulator();
  try {
    const startup = await attempt('startup', 'startup (main.js start, WeChat off; the bare telegraf bot as the floor)', () =>
      runStartupBench({ modelUrl: model.url, runs: plan.startupRuns, keepIdle: plan.runs, trees, bareBotApiRoot: emulator.apiRoot }),
    );
    const bareStartup = startup?.[trees.length];
    const bare = bareStartup?.status === 'fulfilled' ? bareStartup.value : undefined;
    if (startup) {
      if (!bare) notes.push(`the bare bot (the floor of start-up and idle memory) could not be measured, so startup.ratioToBareBot and memory.idleOverBareBotMb are null: ${reasonOf(bareStartup?.status === 'rejected' ? bareStartup.reason : 'no result')}`);
      else own.details['startup.bareBotReadyMs'] = round(bare.readyMs, 0);
      eachTree('startup', startup, (sheet, result) => {
        sheet.startup.readyMs = round(result.readyMs, 0);
        sheet.startup.ratioToBareBot = bare ? round(result.readyMs / bare.readyMs, 2) : null;
      });
      const runsOf = (result: PromiseSettledResult<{ runsMs: readonly number[] }> | undefined) => (result?.status === 'fulfilled' ? result.value.runsMs.map((value) => Math.round(value)).join(', ') : 'failed');
      notes.push(
        `startup.readyMs: spawn of \`node dist/src/app/main.js start\` (compiled, WeChat off, gateway on a random port) to its "echo-agent is running" line, ${runsNote(plan.startupRuns)} after one unmeasured start; runs ${runsOf(startup[0])} ms${against ? ` (${trees[1]?.label}: ${runsOf(startup[1])} ms)` : ''}. ratioToBareBot: readyMs / the same for a bare telegraf bot (test/bench/bare-echo-bot.ts, no model) from spawn to its first getUpdates on the emulator, taking turns with ${against ? 'the agents' : 'the agent'} in the same run (runs ${runsOf(bareStartup)} ms, details.startup.bareBotReadyMs).`,
      );
    }

    const registry = await attempt('registry', 'registry (no-op tool through ToolRegistry.execute)', () =>
      inProcess('registry', { runs: 1, durationMs: plan.registryMs, warmupIterations: 300 }, plan.runs, () =>
        runRegistryBench({ runs: plan.runs, durationMs: plan.registryMs, warmupIterations: 300 }),
      ),
    );
    if (registry) {
      eachTree('registry', registry, (sheet, runs) => {
        sheet.registry.microsPerCall = round(median(runs.map((run) => run.microsPerCall)), 1);
        sheet.details['registry.microsPerCallResumedTurn'] = round(median(runs.map((run) => run.microsPerCallResumedTurn)), 1);
        sheet.details['registry.microsPerCallWithoutReplayGuard'] = round(median(runs.map((run) => run.microsPerCallWithoutReplayGuard)), 1);
      });
      notes.push(registryNote(plan, runsNote(plan.runs)) + childNote);
    }

    const exec = await attempt('exec', 'exec sandbox (exec of `true`, bwrap on and off)', () =>
      inProcess('exec', { calls: quick ? 30 : 100, warmup: 10 }, 1, () => runExecBench({ calls: quick ? 30 : 100, warmup: 10 })),
    );
    if (exec) {
      eachTree('exec sandbox', exec, (sheet, [figures]) => {
        if (!figures) return;
        sheet.details['exec.toolUnsandboxedMedianMs'] = round(figures.toolUnsandboxedMs);
        sheet.details['exec.toolBwrapMedianMs'] = round(figures.toolBwrapMs);
        sheet.details['exec.spawnShellMedianMs'] = round(figures.spawnShellMs);
        sheet.details['exec.spawnBwrapMedianMs'] = round(figures.spawnBwrapMs);
      });
      notes.push('exec.*: median ms per exec of `true` through the exec tool (POSIX syntax check, deny-list, spawn, wait) with tools.sandbox off and with bwrap, and the bare spawns of /bin/sh -c true and bwrap ... /bin/sh -c true.');
    }

    // This tree only: it times the old in-process reader and the new child process side by side itself.
    const pdf = await attempt('pdf', 'PDF text (in process, as before, and in a child process)', () => runPdfBench({ runs: quick ? 5 : 15 }));
    if (pdf) {
      own.details['pdf.inProcessFirstMs'] = round(pdf.inProcessFirstMs, 1);
      own.details['pdf.inProcessMedianMs'] = round(pdf.inProcessMedianMs, 1);
      own.details['pdf.outOfProcessMedianMs'] = round(pdf.outOfProcessMedianMs, 1);
      notes.push(
        `pdf.*: ms to get the text of a two-page PDF, this tree only. inProcess: unpdf in the bench process as extract-pdf-text.ts did before issue 24 (First: the first PDF, unpdf's import included; Median: later ones, ${runsNote(quick ? 5 : 15)}). outOfProcessMedianMs: createPdfTextReader, a child process per file (fork, load unpdf, read, answer over IPC), ${runsNote(quick ? 5 : 15)} after one unmeasured run; runs ${pdf.outOfProcessRunsMs.map((value) => Math.round(value)).join(', ')} ms.`,
      );
    }

    const pipelineOptions = { sessions: 200, throughputMs: plan.pipelineThroughputMs, latencyMs: plan.pipelineLatencyMs, warmupMs: 1000 };
    const pipeline = await attempt('pipeline', 'pipeline (bus, agent loop, registry, store; instant model)', () =>
      inProcess('pipeline', { runs: 1, ...pipelineOptions }, plan.runs, () => runPipelineBench({ runs: plan.runs, ...pipelineOptions })),
    );
    if (pipeline) {
      eachTree('pipeline', pipeline, (sheet, runs, tree) => {
        const pick = (get: (run: (typeof runs)[number]) => number) => median(runs.map(get));
        sheet.pipeline = { turnsPerSecond: round(pick((run) => run.turnsPerSecond), 1), p50Ms: round(pick((run) => run.p50Ms)), p99Ms: round(pick((run) => run.p99Ms)) };
        sheet.details['pipeline.latencyPhaseTurnsPerSecond'] = round(pick((run) => run.latencyRate), 0);
        sheet.details['pipeline.saturatedP50Ms'] = round(pick((run) => run.saturatedP50Ms));
        sheet.details['pipeline.saturatedP99Ms'] = round(pick((run) => run.saturatedP99Ms));
        const notCompleted = runs.reduce((total, run) => total + run.notCompleted, 0);
        if (notCompleted > 0) notes.push(`${tree.isThisTree ? '' : `against ${tree.label}: `}pipeline: ${notCompleted} turns did not complete.`);
        if (runs.some((run) => run.durableIntake === false)) notes.push(`against ${tree.label}: its app has no durable intake (app.accept), so its pipeline and memory turns enter by app.bus.publish, its intake then.`);
      });
      notes.push(pipelineNote(plan, runsNote(plan.runs)) + childNote);
    }

    const pipelineMemory = await attempt('pipeline-memory', 'pipeline with memory on (fact extraction, recall, compaction; instant model)', () =>
      inProcess('pipeline', { runs: 1, ...pipelineOptions, memory: true }, plan.runs, () => runPipelineBench({ runs: plan.runs, ...pipelineOptions, memory: true })),
    );
    if (pipelineMemory) {
      eachTree('pipeline-memory', pipelineMemory, (sheet, runs) => {
        const pick = (get: (run: (typeof runs)[number]) => number) => median(runs.map(get));
        sheet.details['pipeline.memoryOnTurnsPerSecond'] = round(pick((run) => run.turnsPerSecond), 1);
        sheet.details['pipeline.memoryOnP50Ms'] = round(pick((run) => run.p50Ms));
        sheet.details['pipeline.memoryOnP99Ms'] = round(pick((run) => run.p99Ms));
        // Per turn, what memory adds to the saturated runtime: 1/throughput on minus 1/throughput off (both from this run).
        const off = sheet.pipeline.turnsPerSecond;
        const on = pick((run) => run.turnsPerSecond);
        sheet.details['pipeline.memoryExtraMsPerTurn'] = off === null || off <= 0 || on <= 0 ? null : round(1000 / on - 1000 / off, 3);
      });
      notes.push(pipelineMemoryNote(runsNote(plan.runs)) + childNote);
    }

    const telegram = await attempt('telegram', 'telegram (emulator over HTTP, echo-agent beside two bare telegraf bots)', () =>
      runTelegramBench({ runs: plan.runs, senders: plan.telegramSenders, concurrentSenders: 50, concurrentMessagesEach: plan.concurrentEach, sequentialMessages: plan.sequentialMessages, sequentialPauseMs: 1000, trees }),
    );
    if (telegram) {
      eachTree('telegram', telegram, (sheet, result, tree) => {
        sheet.telegram = {
          messagesPerSecond: round(result.messagesPerSecond, 1),
          p99Ms: round(result.p99Ms, 1),
          bareMessagesPerSecond: round(result.bareMessagesPerSecond, 1),
          ratioToBare: round(result.ratioToBare, 3),
          ratioToModelFloor: round(result.ratioToModelFloor, 3),
          sequentialMedianMs: round(result.sequentialMedianMs, 1),
          concurrent50MessagesPerSecond: round(result.concurrent50MessagesPerSecond, 1),
        };
        sheet.details['telegram.cpuMsPerMessage'] = result.cpuMsPerMessage === null ? null : round(result.cpuMsPerMessage, 2);
        if (!tree.isThisTree) return;
        sheet.details['telegram.bareCpuMsPerMessage'] = result.bareCpuMsPerMessage === null ? null : round(result.bareCpuMsPerMessage, 2);
        sheet.details['telegram.modelFloorCpuMsPerMessage'] = result.modelFloorCpuMsPerMessage === null ? null : round(result.modelFloorCpuMsPerMessage, 2);
        sheet.details['telegram.bareP99Ms'] = round(result.bareP99Ms, 1);
        sheet.details['telegram.bareSequentialMedianMs'] = round(result.bareSequentialMedianMs, 1);
        sheet.details['telegram.bareConcurrent50MessagesPerSecond'] = round(result.bareConcurrent50MessagesPerSecond, 1);
        sheet.details['telegram.modelFloorMessagesPerSecond'] = round(result.modelFloorMessagesPerSecond, 1);
        sheet.details['telegram.modelFloorP99Ms'] = round(result.modelFloorP99Ms, 1);
        sheet.details['telegram.modelFloorSequentialMedianMs'] = round(result.modelFloorSequentialMedianMs, 1);
        sheet.details['telegram.modelFloorConcurrent50MessagesPerSecond'] = round(result.modelFloorConcurrent50MessagesPerSecond, 1);
      });
      notes.push(telegramNote(plan, runsNote(plan.runs), quick, against));
    }

    if (startup) {
      log(`• idle memory (${plan.idleMs / 1000} s after ready)...`);
      let bareIdle: number | undefined;
      for (const [index, result] of startup.entries()) {
        if (result.status !== 'fulfilled') continue;
        const tree = trees[index];
        try {
          const idle = await measureIdleMemory(result.value.idleAgents, plan.idleMs);
          if (tree === undefined) bareIdle = idle.rssMb;
          else (sheets[index] as FigureSheet).memory.idleRssMb = round(idle.rssMb, 1);
        } catch (error) {
          if (tree === undefined) notes.push(`the bare bot's idle memory could not be measured, so memory.idleOverBareBotMb is null: ${reasonOf(error)}`);
          else failed(tree, 'idle memory', error);
        }
      }
      log('  done');
      if (bareIdle !== undefined) own.details['memory.bareBotIdleRssMb'] = round(bareIdle, 1);
      for (const sheet of sheets) sheet.memory.idleOverBareBotMb = sheet.memory.idleRssMb === null || bareIdle === undefined ? null : round(sheet.memory.idleRssMb - bareIdle, 1);
      notes.push(
        `memory.idleRssMb: VmRSS of \`main.js start\` (WeChat off) at least ${plan.idleMs / 1000} s after its ready line${quick ? ' (10 s: --quick)' : ''}, ${runsNote(plan.runs)}. idleOverBareBotMb: idleRssMb minus the VmRSS of the bare telegraf bot of the start-up floor, idle as long (polling the emulator, which answers at once, every 100 ms), in the same run (details.memory.bareBotIdleRssMb).`,
      );
    }

    const wechat = await attempt('wechat', 'startup with WeChat (puppet that cannot log in)', () =>
      alternate(
        trees.map((tree) => ({ label: tree.label, measure: () => measureStartWithWechat(model.url, tree) })),
        plan.wechatRuns,
      ),
    );
    if (wechat) {
      eachTree('startup with WeChat', wechat, (sheet, runsMs) => {
        sheet.startup.readyMsWithWechat = round(median(runsMs), 0);
      });
      notes.push(`startup.readyMsWithWechat: the same with WECHAT_ENABLED=true and the default puppet (wechaty-puppet-wechat4u), which cannot log in here; ${runsNote(plan.wechatRuns)}.`);
    }

    const mcp = await attempt('mcp', 'startup with two MCP servers (stdio and Streamable HTTP)', async () => {
      const setup = await startMcpServers();
      try {
        return await alternate(
          trees.map((tree) => ({ label: tree.label, measure: () => measureStartWithMcp(model.url, setup, tree) })),
          plan.wechatRuns,
        );
      } finally {
        setup.close();
      }
    });
    if (mcp) {
      eachTree('startup with MCP servers', mcp, (sheet, runsMs) => {
        sheet.startup.readyMsWithMcp = round(median(runsMs), 0);
      });
      const ownRuns = mcp[0]?.status === 'fulfilled' ? mcp[0].value.map((value) => Math.round(value)).join(', ') : 'failed';
      notes.push(
        `startup.readyMsWithMcp: the same (WeChat off) with two MCP servers configured, @modelcontextprotocol/server-filesystem over stdio (started by the agent) and server-everything over Streamable HTTP (already running), connected in parallel before the ready line; ${runsNote(plan.wechatRuns)}; runs ${ownRuns} ms.`,
      );
    }

    const sessions = await attempt('memory', `memory with ${plan.sessions10k.toLocaleString('en-US')} sessions (child processes side by side)`, () => runSessionsMemoryBench({ sessions: plan.sessions10k, runs: plan.runs, trees }));
    if (sessions) {
      eachTree(`memory with ${plan.sessions10k.toLocaleString('en-US')} sessions`, sessions, (sheet, result) => {
        sheet.memory.rss10kSessionsMb = round(result.rssMb, 1);
        sheet.details['memory.sessionsMeasured'] = result.sessions;
        sheet.details['memory.startedRssMb'] = round(result.startedRssMb, 1);
        sheet.details['memory.peakRssSessionsMb'] = round(result.peakRssMb, 1);
        sheet.details['memory.secondsPerSessionsRun'] = round(result.secondsPerRun, 1);
        sheet.details['memory.retainedBytesPerSession'] = round(result.retainedBytesPerSession, 0);
        sheet.details['memory.heapUsedAfterSessionsMb'] = round(result.heapUsedAfterMb, 1);
      });
      notes.push(
        `memory.rss10kSessionsMb: VmRSS of a fresh child process (createApp, SQLite, instant model) after ${plan.sessions10k.toLocaleString('en-US')} sessions each sent one message (200 at a time)${quick ? ' — only 1,000 sessions in --quick, not 10,000' : ''}, ${runsNote(plan.runs)}, the runs side by side${against ? ' (both trees\u2019 children at once, started alternately, each from its own build of this harness)' : ''}; startedRssMb: the same process before the first message. retainedBytesPerSession: in one more child per tree, the heap in use after full collections, after the sessions minus before them (300 warm-up sessions first), divided by the sessions: what they keep alive, independent of when the collector last ran (which moves rss10kSessionsMb by tens of MB); heapUsedAfterSessionsMb: that heap after them.`,
      );
    }

    const clusterWanted = options.only === undefined || options.only.includes('cluster');
    const postgresUp = clusterWanted && (await isPostgresUp());
    if (clusterWanted && !postgresUp) notes.push('cluster could not be measured (its figures are null): PostgreSQL is not reachable on 127.0.0.1:5432, and cluster mode needs it.');
    const cluster = postgresUp
      ? await attempt('cluster', 'cluster (1 and 3 instances on one PostgreSQL, 1 on SQLite, then SIGKILLs under a steady load)', () =>
          runClusterBench({ runs: plan.runs, senders: plan.clusterSenders, kills: plan.clusterKills, ...clusterLoad, trees }),
        )
      : undefined;
    if (cluster) {
      eachTree('cluster', cluster, (sheet, result, tree) => {
        const recoveries = result.recoveries.map((recovery) => recovery.recoverySeconds);
        sheet.cluster = {
          messagesPerSecond1: round(result.messagesPerSecond1, 1),
          messagesPerSecond3: round(result.messagesPerSecond3, 1),
          ratio3to1: round(result.messagesPerSecond3 / result.messagesPerSecond1, 3),
          ratio1ToStandalone: round(result.messagesPerSecond1 / result.standaloneMessagesPerSecond, 3),
          medianRecoverySeconds: round(recoveries.length === 0 ? undefined : median(recoveries), 1),
          maxRecoverySeconds: round(recoveries.length === 0 ? undefined : Math.max(...recoveries), 1),
        };
        sheet.details['cluster.standaloneMessagesPerSecond'] = round(result.standaloneMessagesPerSecond, 1);
        sheet.details['cluster.oneInstanceP99Ms'] = round(result.p99Ms1, 1);
        sheet.details['cluster.threeInstancesP99Ms'] = round(result.p99Ms3, 1);
        sheet.details['cluster.standaloneP99Ms'] = round(result.standaloneP99Ms, 1);
        notes.push(clusterNote(plan, tree, result, options.cores));
      });
    }
  } finally {
    await emulator.stop();
    await model.close();
  }
  return { figures: sheets, notes };
}
