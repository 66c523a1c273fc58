import type { Channel } from '../events/channel.js';
import type { SchedulerPort } from '../scheduling/scheduled-job.js';
import type { WiredChannel } from './channel-context.js';

/** The scheduler the cron wiring provides, with the channel that fires its jobs. */
export type WiredScheduler = { readonly scheduler: SchedulerPort; readonly wired: WiredChannel };

/** Narrows a wired channel to its running channel. */
export function runningChannel(wired: WiredChannel): Channel | undefined {
  return wired.on ? wired.channel : undefined;
}
