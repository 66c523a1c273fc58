import { chaosToken } from '../chaos/cluster-under-chaos.js';
import { measureRecovery, type Recovery } from '../chaos/measure-recovery.js';
import { sendSteadily } from '../chaos/send-steadily.js';
import { median, sleep } from './bench-statistics.js';
import type { BenchTree } from './bench-tree.js';
import { startBenchCluster } from './start-bench-cluster.js';
import { createTelegramLoad, type PhaseResult, runBurst } from './telegram-load.js';

/** How the cluster benchmark runs. */
export type ClusterBenchOptions = {
  readonly runs: number;
  /** Senders of the throughput load, each sending `messagesEach` messages, all at once. */
  readonly senders: number;
  readonly messagesEach: number;
  readonly modelDelayMs: number;
  /** SIGKILLs during the recovery phase, one at a time. */
  readonly kills: number;
  /** Chats the steady load goes round, one message every `everyMs`. */
  readonly steadyChats: number;
  readonly everyMs: number;
  /** How long a killed instance stays dead before it is started again. */
  readonly deadForMs: number;
  /** Steady load before the first kill, and between a recovery and the next kill. */
  readonly settleMs: number;
};

/** Which instance a kill hit: the elected Telegram poller, or one that only runs turns. */
export type KilledRole = 'poller' | 'worker';

/** One kill in the recovery phase. */
export type KillRecovery = Recovery & { readonly role: KilledRole };

/** The cluster figures of one tree: throughput with 1 and 3 instances and of the standalone process (medians over the runs), and the recoveries from each kill. */
export type ClusterFigures = {
  readonly messagesPerSecond1: number;
  readonly messagesPerSecond3: number;
  /** The same single process on SQLite (no cluster mode), under the same load in the same run. */
  readonly standaloneMessagesPerSecond: number;
  readonly p99Ms1: number;
  readonly p99Ms3: number;
  readonly standaloneP99Ms: number;
  readonly runs1: readonly number[];
  readonly runs3: readonly number[];
  readonly runsStandalone: readonly number[];
  readonly recoveries: readonly KillRecovery[];
};

const warmupSenders = 10;
const recoveryTimeoutMs = 120_000;

/** One throughput measurement: instances, and where they store. */
type Setup = { readonly key: 'one' | 'three' | 'standalone'; readonly instances: number; readonly storage: 'postgres' | 'sqlite' };

const setups: readonly Setup[] = [
  { key: 'one', instances: 1, storage: 'postgres' },
  { key: 'three', instances: 3, storage: 'postgres' },
  { key: 'standalone', instances: 1, storage: 'sqlite' },
];

/**
 * For each tree: throughput with one and three instances and of the standalone process (a fresh database
 * each, the set-ups rotating which goes first per run, and with several trees the trees alternating within
 * each), then recovery from SIGKILLs. One result per tree; a tree without cluster mode, or whose
 * instances failed, is that failure.
 */
export async function runClusterBench(options: ClusterBenchOptions & { readonly trees: readonly BenchTree[] }): Promise<PromiseSettledResult<ClusterFigures>[]> {
  const failures = new Map<BenchTree, unknown>();
  for (const tree of options.trees) if (!tree.hasClusterMode) failures.set(tree, new Error(`${tree.label} has no cluster mode`));
  const runs = new Map<BenchTree, Record<Setup['key'], PhaseResult[]>>(options.trees.map((tree) => [tree, { one: [], three: [], standalone: [] }]));
  const measureFor = async <T>(tree: BenchTree, work: () => Promise<T>): Promise<T | undefined> => {
    if (failures.has(tree)) return undefined;
    try {
      return await work();
    } catch (error) {
      if (tree === options.trees[0]) throw error;
      failures.set(tree, error);
      return undefined;
    }
  };
  for (let run = 0; run < options.runs; run += 1) {
    const shift = run % setups.length;
    const treeOrder = run % 2 === 0 ? options.trees : [...options.trees].reverse();
    for (const setup of [...setups.slice(shift), ...setups.slice(0, shift)]) {
      for (const tree of treeOrder) {
        const phase = await measureFor(tree, () => measureThroughput(setup, run, tree, options));
        if (phase) runs.get(tree)?.[setup.key].push(phase);
      }
    }
  }
  const recoveries = new Map<BenchTree, KillRecovery[]>();
  for (const tree of options.trees) {
    const measured = await measureFor(tree, () => measureRecoveries(tree, options));
    if (measured) recoveries.set(tree, measured);
  }
  return options.trees.map((tree): PromiseSettledResult<ClusterFigures> => {
    const measured = runs.get(tree);
    if (failures.has(tree) || !measured) return { status: 'rejected', reason: failures.get(tree) };
    const figure = (key: Setup['key'], pick: (phase: PhaseResult) => number) => median(measured[key].map(pick));
    return {
      status: 'fulfilled',
      value: {
        messagesPerSecond1: figure('one', (phase) => phase.messagesPerSecond),
        messagesPerSecond3: figure('three', (phase) => phase.messagesPerSecond),
        standaloneMessagesPerSecond: figure('standalone', (phase) => phase.messagesPerSecond),
        p99Ms1: figure('one', (phase) => phase.p99Ms),
        p99Ms3: figure('three', (phase) => phase.p99Ms),
        standaloneP99Ms: figure('standalone', (phase) => phase.p99Ms),
        runs1: measured.one.map((phase) => phase.messagesPerSecond),
        runs3: measured.three.map((phase) => phase.messagesPerSecond),
        runsStandalone: measured.standalone.map((phase) => phase.messagesPerSecond),
        recoveries: recoveries.get(tree) ?? [],
      },
    };
  });
}

/** `senders × messagesEach` messages all at once through the set-up, after an unmeasured warm-up of one message from each of 10 other users. */
async function measureThroughput(setup: Setup, run: number, tree: BenchTree, options: ClusterBenchOptions): Promise<PhaseResult> {
  const userIds = Array.from({ length: warmupSenders + options.senders }, (_, index) => 300_001 + index);
  const cluster = await startBenchCluster({ instances: setup.instances, userIds, modelDelayMs: options.modelDelayMs, tree, storage: setup.storage });
  const load = createTelegramLoad(cluster.emulator, chaosToken);
  try {
    await runBurst(load, { userIds: userIds.slice(0, warmupSenders), messagesEach: 1, label: `warmup-${setup.key}` });
    return await runBurst(load, { userIds: userIds.slice(warmupSenders), messagesEach: options.messagesEach, label: `cluster-${setup.key}-r${run}` });
  } finally {
    load.close();
    await cluster.close();
  }
}

/**
 * Three instances under a steady load; each kill hits the poller or a worker in turn (the poller
 * first), the instance starts again after `deadForMs`, and the recovery is measured from the kill
 * until every message sent before it had its answer.
 */
async function measureRecoveries(tree: BenchTree, options: ClusterBenchOptions): Promise<KillRecovery[]> {
  const people = Array.from({ length: options.steadyChats }, (_, index) => 400_001 + index);
  const cluster = await startBenchCluster({ instances: 3, userIds: people, modelDelayMs: options.modelDelayMs, tree });
  const stream = sendSteadily({
    people,
    messagesEach: Number.POSITIVE_INFINITY,
    everyMs: options.everyMs,
    textOf: (person, number) => `steady p${person} m${number}`,
    send: async (person, text) => {
      const client = cluster.emulator.privateChatClient(chaosToken, person);
      await client.sendMessage(client.makeMessage(text));
    },
  });
  const answeredAt = (text: string) => cluster.seenAt(`answer: ${text}`);
  const recoveries: KillRecovery[] = [];
  try {
    for (let kill = 0; kill < options.kills; kill += 1) {
      await sleep(options.settleMs);
      const role: KilledRole = kill % 2 === 0 ? 'poller' : 'worker';
      const poller = cluster.poller();
      const victim = role === 'poller' ? poller : (cluster.names.find((name) => name !== poller) ?? poller);
      const killedAt = await cluster.killAndRestart(victim, { deadForMs: options.deadForMs });
      const measure = () => measureRecovery({ killedAt, sentAt: stream.sentAt, answeredAt });
      while (!Number.isFinite(measure().recoverySeconds)) {
        if (Date.now() - killedAt > recoveryTimeoutMs) throw new Error(`${measure().pending} messages sent before killing the ${role} had no answer ${recoveryTimeoutMs / 1000} s later`);
        await sleep(100);
      }
      recoveries.push({ role, ...measure() });
    }
    return recoveries;
  } finally {
    await stream.stop();
    await cluster.close();
  }
}
