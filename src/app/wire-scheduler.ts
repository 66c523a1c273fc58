import type { ChannelContext, WiredChannel } from '../channel/channel-context.js';
import { createScheduler, type Scheduler } from '../scheduler/create-scheduler.js';
import type { SchedulerPort } from '../scheduling/scheduled-job.js';

/** The core scheduler as wired: the port the schedule tools use, and its event source for the start-up line and health. */
export type WiredScheduler = {
  readonly scheduler: SchedulerPort;
  readonly wired: WiredChannel & { readonly on: true };
  /** Every stored job with its runs, firing one now, pausing and resuming (the web console's schedules page). */
  readonly control: Pick<Scheduler, 'jobs' | 'runNow' | 'pause' | 'resume'>;
};

/** Builds the core scheduler (every mode, beside the channels, never one of them); it starts after every channel. */
export async function wireScheduler(context: Omit<ChannelContext, 'channelName' | 'gateway' | 'turns'>): Promise<WiredScheduler> {
  const scheduler = createScheduler({ config: context.config, store: context.store, outbox: context.outbox, telemetry: context.telemetry, logger: context.logger.child({ component: 'scheduler' }), shared: context.instance.mode === 'cluster' });
  for (const problem of scheduler.configProblems) context.logger.warn(problem);
  const stored = (await scheduler.jobs()).filter((job) => job.source === 'tool' && !job.done).length;
  const configured = context.config.cron.jobs.length;
  const problems = scheduler.configProblems.length === 0 ? '' : `, ${scheduler.configProblems.length} with problems (see the log)`;
  return { wired: { on: true, channel: scheduler, detail: `${configured} from config, ${stored} scheduled by tools${problems}` }, scheduler: scheduler.scheduler, control: scheduler };
}
