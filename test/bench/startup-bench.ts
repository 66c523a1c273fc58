import { rmSync } from 'node:fs';
import { median, sleep } from './bench-statistics.js';
import { createAgentEnvironment } from './agent-environment.js';
import { readProcessMemory } from './read-process-memory.js';
import { type ReadyProcess, spawnReadyProcess } from './spawn-ready-process.js';
import { compiledScript, repositoryRoot } from './bench-paths.js';

/** The line `npm start` prints once every channel has started. */
export const readyText = 'echo-agent is running';

const mainScript = compiledScript('src/app/main.js');

/** A started `main.js start` kept running, to be measured idle later. */
export type IdleAgent = { readonly process: ReadyProcess; readonly dataDir: string };

/** Start-up figures: medians over the runs, and the processes left running for the idle measurement. */
export type StartupResult = { readonly readyMs: number; readonly runsMs: readonly number[]; readonly idleAgents: readonly IdleAgent[] };

/** Spawns the compiled `main.js start` and times it to its ready line. */
export async function startAgent(modelUrl: string, extra: Readonly<Record<string, string>> = {}): Promise<IdleAgent> {
  const { environment, dataDir } = createAgentEnvironment({ modelUrl, extra });
  try {
    const started = await spawnReadyProcess({ script: mainScript, args: ['start'], environment, cwd: repositoryRoot, readyText, timeoutMs: 60_000 });
    return { process: started, dataDir };
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/** Stops an agent and removes its data folder. */
export async function stopAgent(agent: IdleAgent, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  await agent.process.stop(signal);
  rmSync(agent.dataDir, { recursive: true, force: true });
}

/**
 * `startup.readyMs`: `node dist/src/app/main.js start` with WeChat off, one unmeasured start first to
 * warm the file cache. The first `keepIdle` started processes stay running for the idle-memory figure.
 */
export async function runStartupBench(options: { readonly modelUrl: string; readonly runs: number; readonly keepIdle: number }): Promise<StartupResult> {
  await stopAgent(await startAgent(options.modelUrl));
  const runsMs: number[] = [];
  const idleAgents: IdleAgent[] = [];
  for (let run = 0; run < options.runs; run += 1) {
    const agent = await startAgent(options.modelUrl);
    runsMs.push(agent.process.readyMs);
    if (idleAgents.length < options.keepIdle) idleAgents.push(agent);
    else await stopAgent(agent);
  }
  return { readyMs: median(runsMs), runsMs, idleAgents };
}

/** `startup.readyMsWithWechat`: the same with WECHAT_ENABLED=true and the default puppet, which cannot log in here (no scan, no network). */
export async function runStartupWithWechatBench(options: { readonly modelUrl: string; readonly runs: number }): Promise<{ readonly readyMs: number; readonly runsMs: readonly number[] }> {
  const runsMs: number[] = [];
  for (let run = 0; run < options.runs; run += 1) {
    const agent = await startAgent(options.modelUrl, { WECHAT_ENABLED: 'true' });
    runsMs.push(agent.process.readyMs);
    // Nothing to keep: the puppet only retries its login.
    await stopAgent(agent, 'SIGKILL');
  }
  return { readyMs: median(runsMs), runsMs };
}

/** `memory.idleRssMb`: VmRSS of each idle agent once it has idled `idleMs` after its ready line; stops them. */
export async function measureIdleMemory(agents: readonly IdleAgent[], idleMs: number): Promise<{ readonly rssMb: number; readonly runsMb: readonly number[] }> {
  const runsMb: number[] = [];
  for (const agent of agents) {
    const due = agent.process.readyAt + idleMs - performance.now();
    if (due > 0) await sleep(due);
    const memory = readProcessMemory(agent.process.pid);
    if (!memory) {
      const { exitCode, signalCode } = agent.process.child;
      throw new Error(`the idle agent ${agent.process.pid} is gone (exit ${exitCode}, signal ${signalCode}); its output ended: ${agent.process.output().slice(-600)}`);
    }
    runsMb.push(memory.rssMb);
  }
  await Promise.all(agents.map((agent) => stopAgent(agent)));
  return { rssMb: median(runsMb), runsMb };
}
