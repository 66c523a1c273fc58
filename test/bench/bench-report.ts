import type { MachineDescription } from './describe-machine.js';

/** A figure, or null when it could not be measured (a note says why). */
export type Figure = number | null;

/** The one JSON object `npm run bench -- --json` prints: figures, never pass/fail. */
export type BenchReport = {
  readonly machine: MachineDescription & { readonly loadAverage: readonly number[] };
  readonly quick: boolean;
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
  readonly startup: { readonly readyMs: Figure; readonly readyMsWithWechat: Figure; readonly readyMsWithMcp: Figure };
  readonly memory: { readonly idleRssMb: Figure; readonly rss10kSessionsMb: Figure };
  /** Cluster mode: several `main.js start` processes on one PostgreSQL (null, with a note, when PostgreSQL is not running). */
  readonly cluster: {
    readonly messagesPerSecond1: Figure;
    readonly messagesPerSecond3: Figure;
    /** messagesPerSecond3 / messagesPerSecond1. */
    readonly ratio3to1: Figure;
    /** From a SIGKILL of one of three instances until every message sent before it was answered. */
    readonly medianRecoverySeconds: Figure;
  };
  /** Figures beside the contract ones (the floor's own, queueing, peaks), for reading the table. */
  readonly details: Readonly<Record<string, Figure>>;
  /** How each figure was taken (runs, sizes), and why any figure is null. */
  readonly notes: readonly string[];
  readonly durationSeconds: number;
};

/** The goals of issue 9, as text for the table and the docs; never used to pass or fail. */
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
  'startup.readyMsWithWechat': '',
  'startup.readyMsWithMcp': '',
  'memory.idleRssMb': '< 100',
  'memory.rss10kSessionsMb': '< 300',
  'cluster.messagesPerSecond1': '',
  'cluster.messagesPerSecond3': '',
  'cluster.ratio3to1': '',
  'cluster.medianRecoverySeconds': '',
};

/** OpenClaw 2026.9.6 on the same machine, for scale (from issue 9). */
export const openClawScale: Readonly<Record<string, string>> = {
  'telegram.sequentialMedianMs': '1,700',
  'telegram.concurrent50MessagesPerSecond': '1.7',
  'startup.readyMs': '15,500 (to healthy)',
  'memory.idleRssMb': '929',
  'memory.rss10kSessionsMb': '1,500 (peak, 50 senders)',
};
