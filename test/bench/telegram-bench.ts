import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createScriptedModelServer } from '../fakes/scripted-model-server.js';
import { startTelegramEmulator, type TelegramEmulator } from '../fakes/telegram-emulator.js';
import { createAgentEnvironment } from './agent-environment.js';
import { median } from './bench-statistics.js';
import { liftedTelegramLimitsYaml } from './lifted-telegram-limits.js';
import { type ReadyProcess, spawnReadyProcess } from './spawn-ready-process.js';
import { compiledScript, repositoryRoot } from './bench-paths.js';
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
};

const oursToken = '111111111:AAbenchOursTokenForTheEmulator000';
const bareToken = '222222222:AAbenchBareTokenForTheEmulator000';
const modelFloorToken = '333333333:AAbenchFloorTokenForTheEmulator00';

type BotName = 'ours' | 'bare' | 'modelFloor';
type Bot = { readonly name: BotName; readonly load: TelegramLoad; readonly process: ReadyProcess; stop(): Promise<void> };

/**
 * End to end through telegram-test-api over HTTP: echo-agent (`main.js start` with TELEGRAM_BOT_TOKEN,
 * TELEGRAM_API_ROOT and TELEGRAM_ALLOW_FROM set, the scripted model server echoing) beside a bare
 * telegraf echo bot and a bare telegraf bot that asks the same scripted model once per message (the floor
 * that calls the model, with the request echo-agent sent for its warm-up message), on the same emulator,
 * each in its own process, loaded one after the other.
 */
export async function runTelegramBench(options: TelegramBenchOptions): Promise<TelegramFigures> {
  const emulator = await startTelegramEmulator();
  const model = await createScriptedModelServer();
  const requestDir = mkdtempSync(join(tmpdir(), 'echo-bench-floor-'));
  const bots: Bot[] = [];
  try {
    // Fresh user ids for every phase of every run: each chat starts with its full per-chat send allowance.
    const usersPerRun = options.senders + options.concurrentSenders + 1;
    const userIds = Array.from({ length: 1 + usersPerRun * options.runs }, (_, index) => 100_001 + index);
    const ours = await startOurs(emulator, model.url, userIds);
    bots.push(ours);
    await ours.load.roundTrip(userIds[0] as number, 'warmup-ours');
    // The floor sends echo-agent's own request (system prompt, tool schemas), with each message's text in it.
    const requestFile = join(requestDir, 'model-request.json');
    writeFileSync(requestFile, JSON.stringify(model.requests.at(-1)?.body ?? {}));
    bots.push(await startBare(emulator, 'bare', bareToken));
    bots.push(await startBare(emulator, 'modelFloor', modelFloorToken, { modelUrl: model.url, requestFile }));
    for (const bot of bots.slice(1)) await bot.load.roundTrip(userIds[0] as number, `warmup-${bot.name}`);

    const results: Record<BotName, RunResult[]> = { ours: [], bare: [], modelFloor: [] };
    for (let run = 0; run < options.runs; run += 1) {
      const first = 1 + run * usersPerRun;
      const senders = userIds.slice(first, first + options.senders);
      const concurrent = userIds.slice(first + options.senders, first + options.senders + options.concurrentSenders);
      const single = userIds[first + options.senders + options.concurrentSenders] as number;
      // Alternate which bot goes first, so neither always meets a warmer or a busier emulator.
      const order = [...bots.slice(run % bots.length), ...bots.slice(0, run % bots.length)];
      const phases = new Map<Bot, { main: PhaseResult; concurrent: PhaseResult }>();
      for (const bot of order) {
        const main = await withLogOnFailure(bot, () => runConcurrentSenders(bot.load, { userIds: senders, messagesEach: 1, label: `${bot.name}-r${run}-load` }));
        const concurrentResult = await withLogOnFailure(bot, () =>
          runConcurrentSenders(bot.load, { userIds: concurrent, messagesEach: options.concurrentMessagesEach, label: `${bot.name}-r${run}-c50` }),
        );
        phases.set(bot, { main, concurrent: concurrentResult });
      }
      // The single users of both bots at once: each mostly waits, so they barely meet.
      const sequential = await Promise.all(
        bots.map((bot) =>
          withLogOnFailure(bot, () => runSequentialUser(bot.load, { userId: single, messages: options.sequentialMessages, pauseMs: options.sequentialPauseMs, label: `${bot.name}-r${run}-seq` })),
        ),
      );
      bots.forEach((bot, index) => {
        const phase = phases.get(bot);
        if (phase) results[bot.name].push({ ...phase, sequentialMedianMs: median(sequential[index] ?? []) });
      });
    }

    const figure = (name: BotName, pick: (run: RunResult) => number) => median(results[name].map(pick));
    const messagesPerSecond = figure('ours', (run) => run.main.messagesPerSecond);
    const bareMessagesPerSecond = figure('bare', (run) => run.main.messagesPerSecond);
    const modelFloorMessagesPerSecond = figure('modelFloor', (run) => run.main.messagesPerSecond);
    return {
      messagesPerSecond,
      p99Ms: figure('ours', (run) => run.main.p99Ms),
      bareMessagesPerSecond,
      bareP99Ms: figure('bare', (run) => run.main.p99Ms),
      ratioToBare: messagesPerSecond / bareMessagesPerSecond,
      modelFloorMessagesPerSecond,
      modelFloorP99Ms: figure('modelFloor', (run) => run.main.p99Ms),
      ratioToModelFloor: messagesPerSecond / modelFloorMessagesPerSecond,
      modelFloorSequentialMedianMs: figure('modelFloor', (run) => run.sequentialMedianMs),
      modelFloorConcurrent50MessagesPerSecond: figure('modelFloor', (run) => run.concurrent.messagesPerSecond),
      sequentialMedianMs: figure('ours', (run) => run.sequentialMedianMs),
      bareSequentialMedianMs: figure('bare', (run) => run.sequentialMedianMs),
      concurrent50MessagesPerSecond: figure('ours', (run) => run.concurrent.messagesPerSecond),
      bareConcurrent50MessagesPerSecond: figure('bare', (run) => run.concurrent.messagesPerSecond),
    };
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

type RunResult = { readonly main: PhaseResult; readonly concurrent: PhaseResult; readonly sequentialMedianMs: number };

async function startOurs(emulator: TelegramEmulator, modelUrl: string, allowed: readonly number[]): Promise<Bot> {
  const { environment, dataDir } = createAgentEnvironment({
    modelUrl,
    extra: { TELEGRAM_BOT_TOKEN: oursToken, TELEGRAM_API_ROOT: emulator.apiRoot, TELEGRAM_ALLOW_FROM: allowed.join(',') },
  });
  const configFile = join(dataDir, 'bench.yaml');
  writeFileSync(configFile, liftedTelegramLimitsYaml);
  environment.ECHO_CONFIG = configFile;
  const started = await spawnReadyProcess({ script: compiledScript('src/app/main.js'), args: ['start'], environment, cwd: repositoryRoot, readyText, timeoutMs: 60_000 });
  const load = createTelegramLoad(emulator, oursToken);
  return {
    name: 'ours',
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
