import type { BusStats } from '../../src/bus/message-bus.js';
import type { ChannelStatus } from '../../src/events/channel.js';

/** What GET /healthz answers: the process is alive, each channel's state, and how full the bus is. */
export type HealthReport = {
  readonly status: 'ok';
  readonly uptimeSeconds: number;
  readonly channels: Readonly<Record<string, ChannelStatus>>;
  readonly bus: BusStats;
};

/** Builds the health report. Pure. */
export function buildHealthReport(input: { readonly channels: Readonly<Record<string, ChannelStatus>>; readonly bus: BusStats; readonly startedAt: Date; readonly now: Date }): HealthReport {
  return {
    status: 'ok',
    uptimeSeconds: Math.max(0, Math.round((input.now.getTime() - input.startedAt.getTime()) / 1000)),
    channels: input.channels,
    bus: input.bus,
  };
}
