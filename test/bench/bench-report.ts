import type { MachineDescription } from './describe-machine.js';

/** A figure, or null when it could not be measured (a note says why). */
export type Figure = number | null;

/** Every figure one tree gets in a run, by section. */
export type TreeFigures = {
  readonly pipeline: { readonly turnsPerSecond: Figure; readonly p50Ms: Figure; readonly p99Ms: Figure };
  readonly telegram: {
    readonly messagesPerSecond: Figure;
    readonly p99Ms: Figure;
    readonly bareMessagesPerSecond: Figure;
    readonly ratioToBare: Figure;
    /** Ours against the bare bot that calls the same model once per message: the floor with the model's cost in it. */
    readonly ratioToModelFloor: Figure;
    readonly sequentialMedianMs: Figure;
    readonly concurrent50MessagesPerSecond: Figure;
  };
  readonly registry: { readonly microsPerCall: Figure };
  readonly startup: {
    readonly readyMs: Figure;
    /** readyMs / the bare telegraf bot's spawn to first getUpdates, measured in the same run. */
    readonly ratioToBareBot: Figure;
    readonly readyMsWithWechat: Figure;
    readonly readyMsWithMcp: Figure;
  };
  readonly memory: {
    readonly idleRssMb: Figure;
    /** idleRssMb minus the idle bare telegraf bot's, measured in the same run. */
    readonly idleOverBareBotMb: Figure;
    readonly rss10kSessionsMb: Figure;
  };
  /** Cluster mode: several `main.js start` processes on one PostgreSQL (null, with a note, when PostgreSQL is not running). */
  readonly cluster: {
    readonly messagesPerSecond1: Figure;
    readonly messagesPerSecond3: Figure;
    /** messagesPerSecond3 / messagesPerSecond1. */
    readonly ratio3to1: Figure;
    /** messagesPerSecond1 / the same single process on SQLite (no cluster mode), under the same load in the same run. */
    readonly ratio1ToStandalone: Figure;
    /** From a SIGKILL of one of three instances until every message sent before it was answered: the median of the kills. */
    readonly medianRecoverySeconds: Figure;
    /** The same, the worst kill. */
    readonly maxRecoverySeconds: Figure;
  };
  /** Figures beside the contract ones (the floor's own, queueing, peaks), for reading the table. */
  readonly details: Readonly<Record<string, Figure>>;
};

/** The sections of `TreeFigures` that hold the contract figures, in the table's order. */
export const figureSections = ['pipeline', 'telegram', 'registry', 'startup', 'memory', 'cluster'] as const;

/** `npm run bench -- --against <ref>`: the ref's figures from the same run, and this tree's divided by them. */
export type AgainstReport = {
  /** The ref as given. */
  readonly ref: string;
  readonly commit: string;
  readonly figures: TreeFigures;
  /** This tree's figure / the ref's, for every figure both have (null where either is null or the ref's is 0). */
  readonly ratios: TreeFigures;
};

/** The one JSON object `npm run bench -- --json` prints: figures, never pass/fail. */
export type BenchReport = TreeFigures & {
  readonly machine: MachineDescription & { readonly loadAverage: readonly number[]; readonly loadAverageAtEnd: readonly number[] };
  readonly quick: boolean;
  /** How each figure was taken (runs, sizes), and why any figure is null. */
  readonly notes: readonly string[];
  readonly durationSeconds: number;
  readonly against?: AgainstReport;
};

/** The goals of issues 9 and 25, as text for the table and the docs; never used to pass or fail. */
export const goals: Readonly<Record<string, string>> = {
  'pipeline.turnsPerSecond': '≥ 1,000',
  'pipeline.p50Ms': '',
  'pipeline.p99Ms': '< 20',
  'telegram.messagesPerSecond': '',
  'telegram.p99Ms': '',
  'telegram.bareMessagesPerSecond': '(floor)',
  'telegram.ratioToBare': '≥ 0.8',
  'telegram.ratioToModelFloor': '≥ 0.8',
  'telegram.sequentialMedianMs': '< 150',
  'telegram.concurrent50MessagesPerSecond': '> 50',
  'registry.microsPerCall': '< 200',
  'startup.readyMs': '< 1,000',
  'startup.ratioToBareBot': '≤ 2.5',
  'startup.readyMsWithWechat': '',
  'startup.readyMsWithMcp': '',
  'memory.idleRssMb': '< 100',
  'memory.idleOverBareBotMb': '≤ 30',
  'memory.rss10kSessionsMb': '< 300',
  'cluster.messagesPerSecond1': '',
  'cluster.messagesPerSecond3': '',
  'cluster.ratio3to1': '',
  'cluster.ratio1ToStandalone': '≥ 0.5',
  'cluster.medianRecoverySeconds': '',
  'cluster.maxRecoverySeconds': '≤ heartbeatSeconds + 5',
};

/** OpenClaw 2026.9.6 on the same machine, for scale (from issue 9). */
export const openClawScale: Readonly<Record<string, string>> = {
  'telegram.sequentialMedianMs': '1,700',
  'telegram.concurrent50MessagesPerSecond': '1.7',
  'startup.readyMs': '15,500 (to healthy)',
  'memory.idleRssMb': '929',
  'memory.rss10kSessionsMb': '1,500 (peak, 50 senders)',
};
