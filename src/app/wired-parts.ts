import type { SchedulerPort } from '../scheduling/scheduled-job.js';
import type { WiredChannel } from './channel-context.js';

/** The scheduler the cron wiring provides, with the channel that fires its jobs. */
export type WiredScheduler = { readonly scheduler: SchedulerPort; readonly wired: WiredChannel };
