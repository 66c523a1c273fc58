import { createCronChannel } from '../../channels/cron/index.js';
import type { SchedulerPort } from '../scheduling/scheduled-job.js';
import type { ChannelContext, WiredChannel } from '../channel/channel-context.js';

/** The scheduler the cron wiring provides, with the channel that fires its jobs. */
export type WiredScheduler = { readonly scheduler: SchedulerPort; readonly wired: WiredChannel };

/** The cron channel and the scheduler port the schedule tools use; on in every mode. */
export async function wireCron(context: Omit<ChannelContext, 'channelName'>): Promise<WiredScheduler> {
  const logger = context.logger.child({ channel: 'cron' });
  const channel = createCronChannel({ config: context.config, store: context.store, outbox: context.outbox, telemetry: context.telemetry, logger, shared: context.instance.mode === 'cluster' });
  for (const problem of channel.configProblems) logger.warn(problem);
  const stored = (await channel.jobs()).filter((job) => job.source === 'tool' && !job.done).length;
  const configured = context.config.cron.jobs.length;
  const problems = channel.configProblems.length === 0 ? '' : `, ${channel.configProblems.length} with problems (see the log)`;
  return { wired: { on: true, channel, detail: `${configured} from config, ${stored} scheduled by tools${problems}` }, scheduler: channel.scheduler };
}
