import { type BenchPlan, clusterLoad } from './bench-plan.js';
import type { BenchTree } from './bench-tree.js';
import type { ClusterFigures } from './cluster-bench.js';

/** How registry.microsPerCall was taken. */
export function registryNote(plan: BenchPlan, runs: string): string {
  return `registry.microsPerCall: a side-effect no-op tool, calls one after another for ${plan.registryMs} ms per run, ${runs}; in a fresh turn, as the runtime runs most calls: the replay guard looks in memory and records to SQLite. microsPerCallResumedTurn: the same in a turn resumed from the store, where the guard also reads SQLite. microsPerCallWithoutReplayGuard: the same tool without side effects.`;
}

/** How the pipeline figures were taken. */
export function pipelineNote(plan: BenchPlan, runs: string): string {
  return `pipeline: createApp (server mode, no chat channel, SQLite in a temporary folder) with an in-process model making one todo call per turn; 200 sessions. turnsPerSecond: each of the 200 users sends again as soon as answered, ${plan.pipelineThroughputMs} ms per run. p50Ms/p99Ms: publish to final reply with messages arriving at half that rate for ${plan.pipelineLatencyMs} ms (saturated* are the same percentiles in the throughput phase, queueing included). ${runs}.`;
}

/** How the memory-on pipeline figures were taken. */
export function pipelineMemoryNote(runs: string): string {
  return `pipeline-memory: the pipeline benchmark again with memory.enabled (the instant model also answers each fact extraction with one fact and each compaction with a summary): details.pipeline.memoryOn* are its turnsPerSecond, p50Ms and p99Ms; memoryExtraMsPerTurn is 1000/memoryOnTurnsPerSecond - 1000/pipeline.turnsPerSecond, the saturated cost memory adds to each turn (null without the pipeline figure of the same run). Facts and compaction run after the answer is sent, so p50Ms moves less than throughput. ${runs}.`;
}

/** How the Telegram figures were taken. */
export function telegramNote(plan: BenchPlan, runs: string, quick: boolean, against: boolean): string {
  return `telegram: telegram-test-api in this process; echo-agent as \`main.js start\` (TELEGRAM_BOT_TOKEN/API_ROOT/ALLOW_FROM, the scripted model server echoing)${against ? ', each tree\u2019s its own bot in the same rotation,' : ''} a bare telegraf echo bot (ratioToBare) and a bare telegraf bot making one chat-completion request to the same scripted model per message and replying with its answer (ratioToModelFloor), each its own process, all long polling (getUpdates with a 25 s timeout, which the emulator holds until a message for that bot arrives, as the Bot API does: test/fakes/hold-long-polls.ts), so a round trip does not depend on where in a bot's poll cycle the message landed. messagesPerSecond/p99Ms: ${plan.telegramSenders} users send one message each at once${quick ? ' (100 instead of 200: --quick)' : ''}. concurrent50: 50 users send ${plan.concurrentEach} messages each, the next when answered. sequentialMedianMs: one user, ${plan.sequentialMessages} messages, a 1 s pause to read each answer. details.telegram.cpuMsPerMessage (bareCpuMsPerMessage, modelFloorCpuMsPerMessage): the CPU each bot's process used, all its threads (/proc/<pid>/stat), over the two load phases, per message of them: what a message costs, however busy the machine. ${runs}.`;
}

/** How one tree's cluster figures were taken, with its raw runs and each kill. */
export function clusterNote(plan: BenchPlan, tree: BenchTree, result: ClusterFigures, cores: number): string {
  const list = (values: readonly number[]) => values.map((value) => value.toFixed(1)).join(', ');
  const recoveries = result.recoveries.map((recovery) => `${recovery.recoverySeconds.toFixed(1)} s (the ${recovery.role}, ${recovery.pending} messages unanswered at the kill)`).join('; ');
  const runs = `runs: 1 instance ${list(result.runs1)}; 3 instances ${list(result.runs3)}; standalone ${list(result.runsStandalone)} messages/s`;
  if (!tree.isThisTree) return `against ${tree.label}: cluster ${runs}; recoveries: ${recoveries}.`;
  const kills = plan.clusterKills === 1 ? '1 SIGKILL (--quick), of the poller' : `${plan.clusterKills} SIGKILLs one at a time, of the poller, a worker, the poller`;
  return `cluster: \`main.js start\` processes sharing a fresh scratch PostgreSQL database per measurement (ECHO_STORAGE_URL, so cluster mode: pg-boss queue, one Telegram poller elected by an advisory lock, any instance runs turns), the emulator behind the chaos tests' recording proxy (it re-delivers updates a killed poller did not acknowledge), the scripted model answering after ${clusterLoad.modelDelayMs} ms, send limits lifted. messagesPerSecond1/3: ${plan.clusterSenders} users send ${clusterLoad.messagesEach} messages each, all at once, to 1 and to 3 instances, after 10 unmeasured warm-up messages; first send to last answer; ${plan.runs === 1 ? '1 run' : `median of ${plan.runs} runs`}, the set-ups rotating which goes first (${runs}). ratio3to1: their quotient; on this machine's ${cores} cores the three instances, PostgreSQL, the emulator and the model share the same CPUs, so more instances add contention, not capacity. ratio1ToStandalone: messagesPerSecond1 / the same single process with storage.url emptied (SQLite in its data folder, no cluster mode), same set-up and load, in the same rotation (details.cluster.standaloneMessagesPerSecond). medianRecoverySeconds/maxRecoverySeconds: 3 instances under a steady load (one message every ${clusterLoad.everyMs} ms across ${clusterLoad.steadyChats} chats); ${kills}, ${clusterLoad.settleMs / 1000} s apart after recovering, each instance started again ${clusterLoad.deadForMs / 1000} s after its kill; from each kill until every message sent before it was answered (a turn the dead instance held moves to another once its heartbeat lapses: cluster.heartbeatSeconds, then each instance's check for lapsed heartbeats, once a second), the median and the worst; recoveries: ${recoveries}.`;
}
