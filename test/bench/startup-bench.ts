import { rmSync } from 'node:fs';
import { createAgentEnvironment } from './agent-environment.js';
import { alternate, type Contestant } from './alternate.js';
import { compiledScript, repositoryRoot } from './bench-paths.js';
import { median, sleep } from './bench-statistics.js';
import { type BenchTree, thisTree } from './bench-tree.js';
import { readProcessMemory } from './read-process-memory.js';
import { type ReadyProcess, spawnReadyProcess } from './spawn-ready-process.js';

/** The line `npm start` prints once every channel has started. */
export const readyText = 'echo-agent is running';

/** A started process kept running, to be measured idle later (an agent's data folder is removed when it stops). */
export type IdleAgent = { readonly process: ReadyProcess; readonly dataDir?: string };

/** Start-up figures of one contestant: medians over the runs, and the processes left running for the idle measurement. */
export type StartupResult = { readonly readyMs: number; readonly runsMs: readonly number[]; readonly idleAgents: readonly IdleAgent[] };

/** The token of the bare bot that is the start-up and idle-memory floor (the emulator accepts any). */
const bareBotToken = '444444444:AAbenchFloorStartupTokenForEmulator';

/** Spawns a tree's compiled `main.js start` (this tree's by default) and times it to its ready line. */
export async function startAgent(modelUrl: string, extra: Readonly<Record<string, string>> = {}, tree: BenchTree = thisTree): Promise<IdleAgent> {
  const { environment, dataDir } = createAgentEnvironment({ modelUrl, extra });
  try {
    const started = await spawnReadyProcess({ script: tree.mainScript, args: ['start'], environment, cwd: tree.repositoryRoot, readyText, timeoutMs: 60_000 });
    return { process: started, dataDir };
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/** The floor: a bare telegraf bot (test/bench/bare-echo-bot.ts, echoing) on the emulator at `apiRoot`, timed from spawn to its first getUpdates. */
export function startBareBot(apiRoot: string): Promise<IdleAgent> {
  return spawnReadyProcess({
    script: compiledScript('test/bench/bare-echo-bot.js'),
    environment: { ...process.env, BENCH_TELEGRAM_TOKEN: bareBotToken, BENCH_TELEGRAM_API_ROOT: apiRoot },
    cwd: repositoryRoot,
    readyText: 'bare bot ready',
    timeoutMs: 30_000,
  }).then((started) => ({ process: started }));
}

/** Stops an agent and removes its data folder. */
export async function stopAgent(agent: IdleAgent, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  await agent.process.stop(signal);
  if (agent.dataDir !== undefined) rmSync(agent.dataDir, { recursive: true, force: true });
}

/**
 * `startup.readyMs`: each tree's `node dist/src/app/main.js start` with WeChat off, and (with `bareBotApiRoot`,
 * an emulator's Bot API root) the bare bot, the contestants taking turns, the first rotating per run. One
 * unmeasured start of each first warms the file cache. The first `keepIdle` started processes of each stay
 * running for the idle-memory figure. One result per tree, then the bare bot's; a contestant that failed is its failure.
 */
export async function runStartupBench(options: {
  readonly modelUrl: string;
  readonly runs: number;
  readonly keepIdle: number;
  readonly trees: readonly BenchTree[];
  readonly bareBotApiRoot?: string;
}): Promise<PromiseSettledResult<StartupResult>[]> {
  const starters = options.trees.map((tree) => ({ label: tree.label, start: () => startAgent(options.modelUrl, {}, tree) }));
  const { bareBotApiRoot } = options;
  if (bareBotApiRoot !== undefined) starters.push({ label: 'bare bot', start: () => startBareBot(bareBotApiRoot) });
  const idle: IdleAgent[][] = starters.map(() => []);
  const warmed = new Set<number>();
  const contestants: Contestant<number>[] = starters.map((starter, index) => ({
    label: starter.label,
    async measure() {
      if (!warmed.has(index)) {
        warmed.add(index);
        await stopAgent(await starter.start());
      }
      const agent = await starter.start();
      const kept = idle[index] as IdleAgent[];
      if (kept.length < options.keepIdle) kept.push(agent);
      else await stopAgent(agent);
      return agent.process.readyMs;
    },
  }));
  const results = await alternate(contestants, options.runs);
  return Promise.all(
    results.map(async (result, index): Promise<PromiseSettledResult<StartupResult>> => {
      const idleAgents = idle[index] ?? [];
      if (result.status === 'rejected') {
        await Promise.all(idleAgents.map((agent) => stopAgent(agent)));
        return result;
      }
      return { status: 'fulfilled', value: { readyMs: median(result.value), runsMs: result.value, idleAgents } };
    }),
  );
}

/** `startup.readyMsWithWechat`: a tree's start with WECHAT_ENABLED=true and the default puppet, which cannot log in here (no scan, no network). */
export async function measureStartWithWechat(modelUrl: string, tree: BenchTree): Promise<number> {
  const agent = await startAgent(modelUrl, { WECHAT_ENABLED: 'true' }, tree);
  // Nothing to keep: the puppet only retries its login.
  await stopAgent(agent, 'SIGKILL');
  return agent.process.readyMs;
}

/** `memory.idleRssMb`: VmRSS of each idle process once it has idled `idleMs` after its ready line; stops them. */
export async function measureIdleMemory(agents: readonly IdleAgent[], idleMs: number): Promise<{ readonly rssMb: number; readonly runsMb: readonly number[] }> {
  const runsMb: number[] = [];
  try {
    for (const agent of agents) {
      const due = agent.process.readyAt + idleMs - performance.now();
      if (due > 0) await sleep(due);
      const memory = readProcessMemory(agent.process.pid);
      if (!memory) {
        const { exitCode, signalCode } = agent.process.child;
        throw new Error(`the idle process ${agent.process.pid} is gone (exit ${exitCode}, signal ${signalCode}); its output ended: ${agent.process.output().slice(-600)}`);
      }
      runsMb.push(memory.rssMb);
    }
  } finally {
    await Promise.all(agents.map((agent) => stopAgent(agent)));
  }
  return { rssMb: median(runsMb), runsMb };
}
