import { chaosToken } from '../chaos/cluster-under-chaos.js';
import { measureRecovery, type Recovery } from '../chaos/measure-recovery.js';
import { sendSteadily } from '../chaos/send-steadily.js';
import { median, sleep } from './bench-statistics.js';
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

/** The cluster figures: throughput with 1 and 3 instances (medians over the runs), and the recoveries from each kill. */
export type ClusterFigures = {
  readonly messagesPerSecond1: number;
  readonly messagesPerSecond3: number;
  readonly p99Ms1: number;
  readonly p99Ms3: number;
  readonly runs1: readonly number[];
  readonly runs3: readonly number[];
  readonly recoveries: readonly KillRecovery[];
};

const warmupSenders = 10;
const recoveryTimeoutMs = 120_000;

/** Throughput with one and with three instances (a fresh database each, the two alternating which goes first), then recovery from SIGKILLs. */
export async function runClusterBench(options: ClusterBenchOptions): Promise<ClusterFigures> {
  const runs: Record<1 | 3, PhaseResult[]> = { 1: [], 3: [] };
  for (let run = 0; run < options.runs; run += 1) {
    const order: (1 | 3)[] = run % 2 === 0 ? [1, 3] : [3, 1];
    for (const instances of order) runs[instances].push(await measureThroughput(instances, run, options));
  }
  const recoveries = await measureRecoveries(options);
  const figure = (instances: 1 | 3, pick: (phase: PhaseResult) => number) => median(runs[instances].map(pick));
  return {
    messagesPerSecond1: figure(1, (phase) => phase.messagesPerSecond),
    messagesPerSecond3: figure(3, (phase) => phase.messagesPerSecond),
    p99Ms1: figure(1, (phase) => phase.p99Ms),
    p99Ms3: figure(3, (phase) => phase.p99Ms),
    runs1: runs[1].map((phase) => phase.messagesPerSecond),
    runs3: runs[3].map((phase) => phase.messagesPerSecond),
    recoveries,
  };
}

/** `senders × messagesEach` messages all at once through the cluster, after an unmeasured warm-up of one message from each of 10 other users. */
async function measureThroughput(instances: number, run: number, options: ClusterBenchOptions): Promise<PhaseResult> {
  const userIds = Array.from({ length: warmupSenders + options.senders }, (_, index) => 300_001 + index);
  const cluster = await startBenchCluster({ instances, userIds, modelDelayMs: options.modelDelayMs });
  const load = createTelegramLoad(cluster.emulator, chaosToken);
  try {
    await runBurst(load, { userIds: userIds.slice(0, warmupSenders), messagesEach: 1, label: `warmup${instances}` });
    return await runBurst(load, { userIds: userIds.slice(warmupSenders), messagesEach: options.messagesEach, label: `cluster${instances}-r${run}` });
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
async function measureRecoveries(options: ClusterBenchOptions): Promise<KillRecovery[]> {
  const people = Array.from({ length: options.steadyChats }, (_, index) => 400_001 + index);
  const cluster = await startBenchCluster({ instances: 3, userIds: people, modelDelayMs: options.modelDelayMs });
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
