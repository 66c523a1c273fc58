// `npm run bench [-- --json] [-- --quick]`: echo-agent's figures beside the goals of issue 9 and a bare
// floor. Progress and the table go to stderr when --json is given, so stdout holds exactly one JSON object.
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { isPostgresUp } from '../contracts/scratch-postgres.js';
import { createScriptedModelServer } from '../fakes/scripted-model-server.js';
import type { BenchReport, Figure } from './bench-report.js';
import { median, roundTo } from './bench-statistics.js';
import { describeMachine } from './describe-machine.js';
import { formatReport } from './format-report.js';
import { runExecBench } from './exec-bench.js';
import { runSessionsMemoryBench } from './memory-bench.js';
import { runPdfBench } from './pdf-bench.js';
import { runPipelineBench } from './pipeline-bench.js';
import { runRegistryBench } from './registry-bench.js';
import { compiledScript } from './bench-paths.js';
import { runClusterBench } from './cluster-bench.js';
import { runStartupWithMcpBench } from './mcp-startup-bench.js';
import { measureIdleMemory, runStartupBench, runStartupWithWechatBench, stopAgent } from './startup-bench.js';
import { runTelegramBench } from './telegram-bench.js';

const flags = new Set(process.argv.slice(2));
const json = flags.has('--json');
const quick = flags.has('--quick');
const unknown = [...flags].filter((flag) => flag !== '--json' && flag !== '--quick');
if (unknown.length > 0) {
  process.stderr.write(`Unknown option ${unknown.join(' ')}. Usage: npm run bench [-- --json] [-- --quick]\n`);
  process.exit(2);
}
if (!existsSync(compiledScript('src/app/main.js'))) {
  process.stderr.write('The compiled app is missing: run `npm run bench`, which builds with tsconfig.bench.json first.\n');
  process.exit(2);
}

/** Sizes of each benchmark; --quick trades runs and load for time (and says so in the notes). */
const plan = quick
  ? { runs: 1, startupRuns: 1, wechatRuns: 1, idleMs: 10_000, sessions10k: 1_000, registryMs: 700, pipelineThroughputMs: 1_500, pipelineLatencyMs: 1_000, telegramSenders: 100, concurrentEach: 2, sequentialMessages: 3, clusterSenders: 50, clusterKills: 1 }
  : { runs: 3, startupRuns: 5, wechatRuns: 3, idleMs: 30_000, sessions10k: 10_000, registryMs: 1_000, pipelineThroughputMs: 2_000, pipelineLatencyMs: 1_500, telegramSenders: 200, concurrentEach: 3, sequentialMessages: 5, clusterSenders: 100, clusterKills: 3 };
/** The cluster benchmark's fixed sizes: the model's delay, the steady load of the recovery phase, how long a killed instance stays dead. */
const clusterLoad = { messagesEach: 2, modelDelayMs: 50, steadyChats: 30, everyMs: 100, deadForMs: 2_000, settleMs: 5_000 };

const log = (line: string) => process.stderr.write(`${line}\n`);
const started = performance.now();
const machine = { ...describeMachine(), loadAverage: loadavg().map((value) => roundTo(value, 2)) };
const notes: string[] = [];
const details: Record<string, Figure> = {};
const round = (value: number | undefined, decimals = 2): Figure => (value === undefined || Number.isNaN(value) ? null : roundTo(value, decimals));

/** Runs one benchmark; a failure becomes null figures and a note, never a crash of the whole run. */
async function attempt<T>(name: string, work: () => Promise<T>): Promise<T | undefined> {
  log(`• ${name}...`);
  const begun = performance.now();
  try {
    const result = await work();
    log(`  done in ${((performance.now() - begun) / 1000).toFixed(1)} s`);
    return result;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    notes.push(`${name} could not be measured (its figures are null): ${reason}`);
    log(`  failed: ${reason}`);
    return undefined;
  }
}

const model = await createScriptedModelServer();
const runsNote = (runs: number) => (runs === 1 ? '1 run (--quick)' : `median of ${runs} runs`);

const startup = await attempt('startup (main.js start, WeChat off)', () => runStartupBench({ modelUrl: model.url, runs: plan.startupRuns, keepIdle: plan.runs }));
if (startup) notes.push(`startup.readyMs: spawn of \`node dist/src/app/main.js start\` (compiled, WeChat off, gateway on a random port) to its "echo-agent is running" line, ${runsNote(plan.startupRuns)} after one unmeasured start; runs ${startup.runsMs.map((value) => Math.round(value)).join(', ')} ms.`);

const registry = await attempt('registry (no-op tool through ToolRegistry.execute)', () => runRegistryBench({ runs: plan.runs, durationMs: plan.registryMs, warmupIterations: 300 }));
if (registry) {
  details['registry.microsPerCallResumedTurn'] = round(registry.microsPerCallResumedTurn, 1);
  details['registry.microsPerCallWithoutReplayGuard'] = round(registry.microsPerCallWithoutReplayGuard, 1);
  notes.push(`registry.microsPerCall: a side-effect no-op tool, calls one after another for ${plan.registryMs} ms per run, ${runsNote(plan.runs)}; in a fresh turn, as the runtime runs most calls: the replay guard looks in memory and records to SQLite. microsPerCallResumedTurn: the same in a turn resumed from the store, where the guard also reads SQLite. microsPerCallWithoutReplayGuard: the same tool without side effects.`);
}

const exec = await attempt('exec sandbox (exec of `true`, bwrap on and off)', () => runExecBench({ calls: quick ? 30 : 100, warmup: 10 }));
if (exec) {
  details['exec.toolUnsandboxedMedianMs'] = round(exec.toolUnsandboxedMs);
  details['exec.toolBwrapMedianMs'] = round(exec.toolBwrapMs);
  details['exec.spawnShellMedianMs'] = round(exec.spawnShellMs);
  details['exec.spawnBwrapMedianMs'] = round(exec.spawnBwrapMs);
  notes.push('exec.*: median ms per exec of `true` through the exec tool (POSIX syntax check, deny-list, spawn, wait) with tools.sandbox off and with bwrap, and the bare spawns of /bin/sh -c true and bwrap ... /bin/sh -c true.');
}

const pdf = await attempt('PDF text (in process, as before, and in a child process)', () => runPdfBench({ runs: quick ? 5 : 15 }));
if (pdf) {
  details['pdf.inProcessFirstMs'] = round(pdf.inProcessFirstMs, 1);
  details['pdf.inProcessMedianMs'] = round(pdf.inProcessMedianMs, 1);
  details['pdf.outOfProcessMedianMs'] = round(pdf.outOfProcessMedianMs, 1);
  notes.push(
    `pdf.*: ms to get the text of a two-page PDF. inProcess: unpdf in the bench process as extract-pdf-text.ts did before issue 24 (First: the first PDF, unpdf's import included; Median: later ones, ${runsNote(quick ? 5 : 15)}). outOfProcessMedianMs: createPdfTextReader, a child process per file (fork, load unpdf, read, answer over IPC), ${runsNote(quick ? 5 : 15)} after one unmeasured run; runs ${pdf.outOfProcessRunsMs.map((value) => Math.round(value)).join(', ')} ms.`,
  );
}

const pipeline = await attempt('pipeline (bus, agent loop, registry, store; instant model)', () =>
  runPipelineBench({ runs: plan.runs, sessions: 200, throughputMs: plan.pipelineThroughputMs, latencyMs: plan.pipelineLatencyMs, warmupMs: 1000 }),
);
if (pipeline) {
  details['pipeline.latencyPhaseTurnsPerSecond'] = round(pipeline.latencyRate, 0);
  details['pipeline.saturatedP50Ms'] = round(pipeline.saturatedP50Ms);
  details['pipeline.saturatedP99Ms'] = round(pipeline.saturatedP99Ms);
  if (pipeline.notCompleted > 0) notes.push(`pipeline: ${pipeline.notCompleted} turns did not complete.`);
  notes.push(
    `pipeline: createApp (server mode, no chat channel, SQLite in a temporary folder) with an in-process model making one todo call per turn; 200 sessions. turnsPerSecond: each of the 200 users sends again as soon as answered, ${plan.pipelineThroughputMs} ms per run. p50Ms/p99Ms: publish to final reply with messages arriving at half that rate for ${plan.pipelineLatencyMs} ms (saturated* are the same percentiles in the throughput phase, queueing included). ${runsNote(plan.runs)}.`,
  );
}

const telegram = await attempt('telegram (emulator over HTTP, echo-agent beside two bare telegraf bots)', () =>
  runTelegramBench({ runs: plan.runs, senders: plan.telegramSenders, concurrentSenders: 50, concurrentMessagesEach: plan.concurrentEach, sequentialMessages: plan.sequentialMessages, sequentialPauseMs: 1000 }),
);
if (telegram) {
  details['telegram.bareP99Ms'] = round(telegram.bareP99Ms, 1);
  details['telegram.bareSequentialMedianMs'] = round(telegram.bareSequentialMedianMs, 1);
  details['telegram.bareConcurrent50MessagesPerSecond'] = round(telegram.bareConcurrent50MessagesPerSecond, 1);
  details['telegram.modelFloorMessagesPerSecond'] = round(telegram.modelFloorMessagesPerSecond, 1);
  details['telegram.modelFloorP99Ms'] = round(telegram.modelFloorP99Ms, 1);
  details['telegram.modelFloorSequentialMedianMs'] = round(telegram.modelFloorSequentialMedianMs, 1);
  details['telegram.modelFloorConcurrent50MessagesPerSecond'] = round(telegram.modelFloorConcurrent50MessagesPerSecond, 1);
  notes.push(
    `telegram: telegram-test-api in this process; echo-agent as \`main.js start\` (TELEGRAM_BOT_TOKEN/API_ROOT/ALLOW_FROM, the scripted model server echoing), a bare telegraf echo bot (ratioToBare) and a bare telegraf bot making one chat-completion request to the same scripted model per message and replying with its answer (ratioToModelFloor), each its own process, all sleeping 100 ms after an empty getUpdates. messagesPerSecond/p99Ms: ${plan.telegramSenders} users send one message each at once${quick ? ' (100 instead of 200: --quick)' : ''}. concurrent50: 50 users send ${plan.concurrentEach} messages each, the next when answered. sequentialMedianMs: one user, ${plan.sequentialMessages} messages, a 1 s pause to read each answer. ${runsNote(plan.runs)}.`,
  );
}

const idle = startup ? await attempt(`idle memory (${plan.idleMs / 1000} s after ready)`, () => measureIdleMemory(startup.idleAgents, plan.idleMs)) : undefined;
if (startup && !idle) await Promise.all(startup.idleAgents.map((agent) => stopAgent(agent)));
if (idle) notes.push(`memory.idleRssMb: VmRSS of \`main.js start\` (WeChat off) ${plan.idleMs / 1000} s after its ready line${quick ? ' (10 s: --quick)' : ''}, ${runsNote(idle.runsMb.length)}.`);

const wechat = await attempt('startup with WeChat (puppet that cannot log in)', () => runStartupWithWechatBench({ modelUrl: model.url, runs: plan.wechatRuns }));
if (wechat) notes.push(`startup.readyMsWithWechat: the same with WECHAT_ENABLED=true and the default puppet (wechaty-puppet-wechat4u), which cannot log in here; ${runsNote(plan.wechatRuns)}.`);

const mcp = await attempt('startup with two MCP servers (stdio and Streamable HTTP)', () => runStartupWithMcpBench({ modelUrl: model.url, runs: plan.wechatRuns }));
if (mcp) notes.push(`startup.readyMsWithMcp: the same (WeChat off) with two MCP servers configured, @modelcontextprotocol/server-filesystem over stdio (started by the agent) and server-everything over Streamable HTTP (already running), connected in parallel before the ready line; ${runsNote(plan.wechatRuns)}; runs ${mcp.runsMs.map((value) => Math.round(value)).join(', ')} ms.`);

const sessions = await attempt(`memory with ${plan.sessions10k.toLocaleString('en-US')} sessions (child processes side by side)`, () => runSessionsMemoryBench({ sessions: plan.sessions10k, runs: plan.runs }));
if (sessions) {
  details['memory.sessionsMeasured'] = sessions.sessions;
  details['memory.startedRssMb'] = round(sessions.startedRssMb, 1);
  details['memory.peakRssSessionsMb'] = round(sessions.peakRssMb, 1);
  details['memory.secondsPerSessionsRun'] = round(sessions.secondsPerRun, 1);
  notes.push(
    `memory.rss10kSessionsMb: VmRSS of a fresh child process (createApp, SQLite, instant model) after ${sessions.sessions.toLocaleString('en-US')} sessions each sent one message (200 at a time)${quick ? ' — only 1,000 sessions in --quick, not 10,000' : ''}, ${runsNote(plan.runs)}, the runs side by side; startedRssMb: the same process before the first message.`,
  );
}

const postgresUp = await isPostgresUp();
if (!postgresUp) notes.push('cluster could not be measured (its figures are null): PostgreSQL is not reachable on 127.0.0.1:5432, and cluster mode needs it.');
const cluster = postgresUp
  ? await attempt('cluster (1 and 3 instances on one PostgreSQL, then SIGKILLs under a steady load)', () =>
      runClusterBench({ runs: plan.runs, senders: plan.clusterSenders, kills: plan.clusterKills, ...clusterLoad }),
    )
  : undefined;
if (cluster) {
  details['cluster.oneInstanceP99Ms'] = round(cluster.p99Ms1, 1);
  details['cluster.threeInstancesP99Ms'] = round(cluster.p99Ms3, 1);
  details['cluster.maxRecoverySeconds'] = round(Math.max(...cluster.recoveries.map((recovery) => recovery.recoverySeconds)), 1);
  const recoveries = cluster.recoveries.map((recovery) => `${recovery.recoverySeconds.toFixed(1)} s (the ${recovery.role}, ${recovery.pending} messages unanswered at the kill)`).join('; ');
  notes.push(
    `cluster: \`main.js start\` processes (this build) sharing a fresh scratch PostgreSQL database per measurement (ECHO_STORAGE_URL, so cluster mode: pg-boss queue, one Telegram poller elected by an advisory lock, any instance runs turns), the emulator behind the chaos tests' recording proxy (it re-delivers updates a killed poller did not acknowledge), the scripted model answering after ${clusterLoad.modelDelayMs} ms, send limits lifted. messagesPerSecond1/3: ${plan.clusterSenders} users send ${clusterLoad.messagesEach} messages each, all at once, to 1 and to 3 instances, after 10 unmeasured warm-up messages; first send to last answer; ${runsNote(plan.runs)}, the two alternating which goes first (runs: 1 instance ${cluster.runs1.map((value) => value.toFixed(1)).join(', ')}; 3 instances ${cluster.runs3.map((value) => value.toFixed(1)).join(', ')} messages/s). ratio3to1: their quotient; on this machine's ${machine.cores} cores the three instances, PostgreSQL, the emulator and the model share the same CPUs, so more instances add contention, not capacity. medianRecoverySeconds: 3 instances under a steady load (one message every ${clusterLoad.everyMs} ms across ${clusterLoad.steadyChats} chats); ${plan.clusterKills === 1 ? '1 SIGKILL (--quick), of the poller' : `${plan.clusterKills} SIGKILLs one at a time, of the poller, a worker, the poller`}, ${clusterLoad.settleMs / 1000} s apart after recovering, each instance started again ${clusterLoad.deadForMs / 1000} s after its kill; from each kill until every message sent before it was answered (a turn the dead instance held moves to another only once pg-boss's monitor pass finds its heartbeat lapsed: cluster.heartbeatSeconds, 10 by default, and pg-boss's monitorIntervalSeconds, 60 by default, so a kill costs well under a second or up to about a minute depending on whether the instance held a turn); recoveries: ${recoveries}.`,
  );
}
await model.close();

const report: BenchReport = {
  machine,
  quick,
  pipeline: { turnsPerSecond: round(pipeline?.turnsPerSecond, 1), p50Ms: round(pipeline?.p50Ms), p99Ms: round(pipeline?.p99Ms) },
  telegram: {
    messagesPerSecond: round(telegram?.messagesPerSecond, 1),
    p99Ms: round(telegram?.p99Ms, 1),
    bareMessagesPerSecond: round(telegram?.bareMessagesPerSecond, 1),
    ratioToBare: round(telegram?.ratioToBare, 3),
    ratioToModelFloor: round(telegram?.ratioToModelFloor, 3),
    sequentialMedianMs: round(telegram?.sequentialMedianMs, 1),
    concurrent50MessagesPerSecond: round(telegram?.concurrent50MessagesPerSecond, 1),
  },
  registry: { microsPerCall: round(registry?.microsPerCall, 1) },
  startup: { readyMs: round(startup?.readyMs, 0), readyMsWithWechat: round(wechat?.readyMs, 0), readyMsWithMcp: round(mcp?.readyMs, 0) },
  memory: { idleRssMb: round(idle?.rssMb, 1), rss10kSessionsMb: round(sessions?.rssMb, 1) },
  cluster: {
    messagesPerSecond1: round(cluster?.messagesPerSecond1, 1),
    messagesPerSecond3: round(cluster?.messagesPerSecond3, 1),
    ratio3to1: round(cluster === undefined ? undefined : cluster.messagesPerSecond3 / cluster.messagesPerSecond1, 3),
    medianRecoverySeconds: round(cluster === undefined ? undefined : median(cluster.recoveries.map((recovery) => recovery.recoverySeconds)), 1),
  },
  details,
  notes,
  durationSeconds: roundTo((performance.now() - started) / 1000, 1),
};

if (json) {
  process.stderr.write(formatReport(report));
  process.stdout.write(`${JSON.stringify(report)}\n`);
} else {
  process.stdout.write(formatReport(report));
}
