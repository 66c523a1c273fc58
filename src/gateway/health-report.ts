import type { BusStats } from '../bus/message-bus.js';
import type { ChannelStatus } from '../events/channel.js';
import type { ParkedSummary } from '../journal/create-turn-parking.js';
import type { ToolServerStatus } from '../registry/dynamic-tool-source.js';
import type { StoreHealth } from '../store/key-value-namespace.js';

/** What GET /healthz answers: the process is alive, each channel's state, the store's, and how full the bus is. */
export type HealthReport = {
  /** `degraded` while the store does not answer: messages are refused unrecorded rather than lost. */
  readonly status: 'ok' | 'degraded';
  readonly uptimeSeconds: number;
  readonly channels: Readonly<Record<string, ChannelStatus>>;
  /** Each MCP server (`up`, `down` with the reason and the next attempt); absent when none is configured. */
  readonly mcp?: Readonly<Record<string, ToolServerStatus>>;
  readonly store: StoreHealth;
  readonly bus: BusStats;
  /** Turns set aside after repeated interruptions (`npm run parked`): how many, and the newest; absent when the store could not say. */
  readonly parked?: ParkedSummary;
  /** Which instance answered, whether it runs alone or beside others on PostgreSQL, and the roles it leads (the Telegram poller, a WeChat login). */
  readonly instance: InstanceHealth;
};

/** This instance, for `/healthz`. */
export type InstanceHealth = {
  readonly id: string;
  readonly mode: 'single' | 'cluster';
  readonly leads: readonly string[];
  /** Events waiting in the queue (across all instances in cluster mode). */
  readonly queueDepth: number;
};

/** Builds the health report. Pure. */
export function buildHealthReport(input: {
  readonly channels: Readonly<Record<string, ChannelStatus>>;
  readonly mcp?: Readonly<Record<string, ToolServerStatus>>;
  readonly bus: BusStats;
  readonly store: StoreHealth;
  readonly parked?: ParkedSummary;
  readonly instance: InstanceHealth;
  readonly startedAt: Date;
  readonly now: Date;
}): HealthReport {
  return {
    status: input.store.state === 'ok' ? 'ok' : 'degraded',
    uptimeSeconds: Math.max(0, Math.round((input.now.getTime() - input.startedAt.getTime()) / 1000)),
    channels: input.channels,
    ...(input.mcp && Object.keys(input.mcp).length > 0 ? { mcp: input.mcp } : {}),
    store: input.store,
    bus: input.bus,
    ...(input.parked ? { parked: input.parked } : {}),
    instance: input.instance,
  };
}
