import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createScriptedModelServer } from '../fakes/scripted-model-server.js';
import { startTelegramEmulator, type TelegramEmulator } from '../fakes/telegram-emulator.js';
import { createAgentEnvironment } from './agent-environment.js';
import { median } from './bench-statistics.js';
import type { BenchTree } from './bench-tree.js';
import { liftedTelegramLimitsYaml } from './lifted-telegram-limits.js';
import { type ReadyProcess, spawnReadyProcess } from './spawn-ready-process.js';
import { compiledScript, repositoryRoot } from './bench-paths.js';
import { readProcessCpuMs } from './read-process-cpu.js';
import { readyText } from './startup-bench.js';
import { createTelegramLoad, type PhaseResult, runConcurrentSenders, runSequentialUser, type TelegramLoad } from './telegram-load.js';

/** How the Telegram benchmark runs. */
export type TelegramBenchOptions = {
  readonly runs: number;
  /** Senders of the main load, one message each, all at once. */
  readonly senders: number;
  readonly concurrentSenders: number;
  readonly concurrentMessagesEach: number;
  readonly sequentialMessages: number;
  /** Pause between an answer and the next message of the single user. */
  readonly sequentialPauseMs: number;
};

/** The Telegram figures (medians over the runs), and the bare bot's beside them. */
export type TelegramFigures = {
  readonly messagesPerSecond: number;
  readonly p99Ms: number;
  readonly bareMessagesPerSecond: number;
  readonly bareP99Ms: number;
  readonly ratioToBare: number;
  /** The bare bot that asks the same scripted model once per message and replies with its answer. */
  readonly modelFloorMessagesPerSecond: number;
  readonly modelFloorP99Ms: number;
  readonly ratioToModelFloor: number;
  readonly modelFloorSequentialMedianMs: number;
  readonly modelFloorConcurrent50MessagesPerSecond: number;
  readonly sequentialMedianMs: number;
  readonly bareSequentialMedianMs: number;
  readonly concurrent50MessagesPerSecond: number;
  readonly bareConcurrent50MessagesPerSecond: number;
  /** CPU the bot's process used (all its threads) per message of the two load phases; null where /proc cannot tell. */
  readonly cpuMsPerMessage: number | null;
  readonly bareCpuMsPerMessage: number | null;
  readonly modelFloorCpuMsPerMessage: number | null;
};

const oursTokens = ['111111111:AAbenchOursTokenForTheEmulator000', '555555555:AAbenchRefOursTokenForTheEmulator0'];
const bareToken = '222222222:AAbenchBareTokenForTheEmulator000';
const modelFloorToken = '333333333:AAbenchFloorTokenForTheEmulator00';

type Bot = { readonly name: string; readonly load: TelegramLoad; readonly process: ReadyProcess; stop(): Promise<void> };

type RunResult = { readonly main: PhaseResult; readonly concurrent: PhaseResult; readonly sequentialMedianMs: number; readonly cpuMsPerMessage: number | undefined };

/**
 * End to end through telegram-test-api over HTTP: echo-agent (`main.js start` with TELEGRAM_BOT_TOKEN,
 * TELEGRAM_API_ROOT and TELEGRAM_ALLOW_FROM set, the scripted model server echoing) beside a bare
 * telegraf echo bot and a bare telegraf bot that asks the same scripted model once per message (the floor
 * that calls the model, with the request echo-agent sent for its warm-up message), on the same emulator,
 * each in its own process, loaded one after the other. With several trees (`--against`), each tree's
 * echo-agent is one more bot in the same rotation, measured against the same floors. One result per
 * tree; a tree whose bot failed is that failure (the first tree's failure fails the whole benchmark).
 */
export async function runTelegramBench(options: TelegramBenchOptions & { readonly trees: readonly BenchTree[] }): Promise<PromiseSettledResult<TelegramFigures>[]> {
  // Long polling, as the Bot API: a message reaches a bot when it is sent, wherever the bot's poll cycle was.
  const emulator = await startTelegramEmulator({ longPolling: true });
  const model = await createScriptedModelServer();
  const requestDir = mkdtempSync(join(tmpdir(), 'echo-bench-floor-'));
  const bots: Bot[] = [];
  const failures = new Map<string, unknown>();
  try {
    // Fresh user ids for every phase of every run: each chat starts with its full per-chat send allowance.
    const usersPerRun = options.senders + options.concurrentSenders + 1;
    const userIds = Array.from({ length: 1 + usersPerRun * options.runs }, (_, index) => 100_001 + index);
    const ours = options.trees.map((tree, index) => ({ tree, name: index === 0 ? 'ours' : `ours@${tree.label}`, token: oursTokens[index] ?? `${666_666_666 + index}:AAbenchMoreOursTokenForTheEmulator` }));
    const [leading, ...others] = ours;
    if (leading === undefined) throw new Error('no tree to measure');
    const firstBot = await startOurs(emulator, model.url, userIds, leading);
    bots.push(firstBot);
    await firstBot.load.roundTrip(userIds[0] as number, `warmup-${firstBot.name}`);
    // The floor sends echo-agent's own request (system prompt, tool schemas), with each message's text in it.
    const requestFile = join(requestDir, 'model-request.json');
    writeFileSync(requestFile, JSON.stringify(model.requests.at(-1)?.body ?? {}));
    for (const other of others) {
      try {
        const bot = await startOurs(emulator, model.url, userIds, other);
        bots.push(bot);
        await bot.load.roundTrip(userIds[0] as number, `warmup-${bot.name}`);
      } catch (error) {
        failures.set(other.name, error);
      }
    }
    const floors = [await startBare(emulator, 'bare', bareToken), await startBare(emulator, 'modelFloor', modelFloorToken, { modelUrl: model.url, requestFile })];
    bots.push(...floors);
    for (const bot of floors) await bot.load.roundTrip(userIds[0] as number, `warmup-${bot.name}`);

    const results = new Map<string, RunResult[]>(bots.map((bot) => [bot.name, []]));
    // A bot of another tree that fails leaves the rotation; the floors and this tree's bot fail the whole benchmark.
    const guarded = async <T>(bot: Bot, work: () => Promise<T>): Promise<T | undefined> => {
      if (failures.has(bot.name)) return undefined;
      try {
        return await withLogOnFailure(bot, work);
      } catch (error) {
        if (bot === firstBot || !bot.name.startsWith('ours@')) throw error;
        failures.set(bot.name, error);
        return undefined;
      }
    };
    for (let run = 0; run < options.runs; run += 1) {
      const first = 1 + run * usersPerRun;
      const senders = userIds.slice(first, first + options.senders);
      const concurrent = userIds.slice(first + options.senders, first + options.senders + options.concurrentSenders);
      const single = userIds[first + options.senders + options.concurrentSenders] as number;
      // Alternate which bot goes first, so neither always meets a warmer or a busier emulator.
      const order = [...bots.slice(run % bots.length), ...bots.slice(0, run % bots.length)];
      const phases = new Map<Bot, { main: PhaseResult; concurrent: PhaseResult; cpuMsPerMessage: number | undefined }>();
      for (const bot of order) {
        // The bot's own CPU over both load phases: what a message costs it, whatever the wall clock of a shared machine says.
        const cpuBefore = readProcessCpuMs(bot.process.pid);
        const main = await guarded(bot, () => runConcurrentSenders(bot.load, { userIds: senders, messagesEach: 1, label: `${bot.name}-r${run}-load` }));
        const concurrentResult = await guarded(bot, () =>
          runConcurrentSenders(bot.load, { userIds: concurrent, messagesEach: options.concurrentMessagesEach, label: `${bot.name}-r${run}-c50` }),
        );
        const cpuAfter = readProcessCpuMs(bot.process.pid);
        if (main && concurrentResult) {
          const cpuMsPerMessage = cpuBefore === undefined || cpuAfter === undefined ? undefined : (cpuAfter - cpuBefore) / (main.messages + concurrentResult.messages);
          phases.set(bot, { main, concurrent: concurrentResult, cpuMsPerMessage });
        }
      }
      // The single users of every bot at once: each mostly waits, so they barely meet.
      const sequential = await Promise.all(
        bots.map((bot) =>
          guarded(bot, () => runSequentialUser(bot.load, { userId: single, messages: options.sequentialMessages, pauseMs: options.sequentialPauseMs, label: `${bot.name}-r${run}-seq` })),
        ),
      );
      bots.forEach((bot, index) => {
        const phase = phases.get(bot);
        const latencies = sequential[index];
        if (phase && latencies && !failures.has(bot.name)) results.get(bot.name)?.push({ ...phase, sequentialMedianMs: median(latencies) });
      });
    }

    const figure = (name: string, pick: (run: RunResult) => number) => median((results.get(name) ?? []).map(pick));
    const cpuFigure = (name: string) => {
      const values = (results.get(name) ?? []).map((run) => run.cpuMsPerMessage);
      return values.length === 0 || values.some((value) => value === undefined) ? null : median(values as number[]);
    };
    const bareMessagesPerSecond = figure('bare', (run) => run.main.messagesPerSecond);
    const modelFloorMessagesPerSecond = figure('modelFloor', (run) => run.main.messagesPerSecond);
    return ours.map(({ name }): PromiseSettledResult<TelegramFigures> => {
      if (failures.has(name)) return { status: 'rejected', reason: failures.get(name) };
      const messagesPerSecond = figure(name, (run) => run.main.messagesPerSecond);
      return {
        status: 'fulfilled',
        value: {
          messagesPerSecond,
          p99Ms: figure(name, (run) => run.main.p99Ms),
          bareMessagesPerSecond,
          bareP99Ms: figure('bare', (run) => run.main.p99Ms),
          ratioToBare: messagesPerSecond / bareMessagesPerSecond,
          modelFloorMessagesPerSecond,
          modelFloorP99Ms: figure('modelFloor', (run) => run.main.p99Ms),
          ratioToModelFloor: messagesPerSecond / modelFloorMessagesPerSecond,
          modelFloorSequentialMedianMs: figure('modelFloor', (run) => run.sequentialMedianMs),
          modelFloorConcurrent50MessagesPerSecond: figure('modelFloor', (run) => run.concurrent.messagesPerSecond),
          sequentialMedianMs: figure(name, (run) => run.sequentialMedianMs),
          bareSequentialMedianMs: figure('bare', (run) => run.sequentialMedianMs),
          concurrent50MessagesPerSecond: figure(name, (run) => run.concurrent.messagesPerSecond),
          bareConcurrent50MessagesPerSecond: figure('bare', (run) => run.concurrent.messagesPerSecond),
          cpuMsPerMessage: cpuFigure(name),
          bareCpuMsPerMessage: cpuFigure('bare'),
          modelFloorCpuMsPerMessage: cpuFigure('modelFloor'),
        },
      };
    });
  } finally {
    for (const bot of bots) await bot.stop();
    await emulator.stop();
    await model.close();
    rmSync(requestDir, { recursive: true, force: true });
  }
}

/** Adds the bot's warnings and errors to a failure, so a lost answer says what the bot logged. */
async function withLogOnFailure<T>(bot: Bot, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const problems = bot.process
      .output()
      .split('\n')
      .filter((line) => /"level":(40|50|60)/.test(line))
      .slice(-5)
      .join('\n');
    const { exitCode, signalCode } = bot.process.child;
    const state = exitCode === null && signalCode === null ? 'still running' : `exited (code ${exitCode}, signal ${signalCode})`;
    throw new Error(`${error instanceof Error ? error.message : String(error)} (${bot.name} bot ${state}; its last warnings: ${problems || 'none'})`);
  }
}

async function startOurs(emulator: TelegramEmulator, modelUrl: string, allowed: readonly number[], ours: { readonly tree: BenchTree; readonly name: string; readonly token: string }): Promise<Bot> {
  const { environment, dataDir } = createAgentEnvironment({
    modelUrl,
    extra: { TELEGRAM_BOT_TOKEN: ours.token, TELEGRAM_API_ROOT: emulator.apiRoot, TELEGRAM_ALLOW_FROM: allowed.join(',') },
  });
  const configFile = join(dataDir, 'bench.yaml');
  writeFileSync(configFile, liftedTelegramLimitsYaml);
  environment.ECHO_CONFIG = configFile;
  const started = await spawnReadyProcess({ script: ours.tree.mainScript, args: ['start'], environment, cwd: ours.tree.repositoryRoot, readyText, timeoutMs: 60_000 }).catch((error: unknown) => {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  });
  const load = createTelegramLoad(emulator, ours.token);
  return {
    name: ours.name,
    load,
    process: started,
    async stop() {
      load.close();
      await started.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function startBare(emulator: TelegramEmulator, name: 'bare' | 'modelFloor', token: string, model?: { readonly modelUrl: string; readonly requestFile: string }): Promise<Bot> {
  const started = await spawnReadyProcess({
    script: compiledScript('test/bench/bare-echo-bot.js'),
    environment: {
      ...process.env,
      BENCH_TELEGRAM_TOKEN: token,
      BENCH_TELEGRAM_API_ROOT: emulator.apiRoot,
      ...(model === undefined ? {} : { BENCH_MODEL_URL: model.modelUrl, BENCH_MODEL_REQUEST_FILE: model.requestFile }),
    },
    cwd: repositoryRoot,
    readyText: 'bare bot ready',
    timeoutMs: 30_000,
  });
  const load = createTelegramLoad(emulator, token);
  return {
    name,
    load,
    process: started,
    async stop() {
      load.close();
      await started.stop();
    },
  };
}
