import type { Outbox } from '../events/outbox.js';
import { formatTarget } from '../events/target.js';
import type { Logger } from '../logging/create-logger.js';
import type { JobRun, ScheduledJob } from '../scheduling/scheduled-job.js';

/**
 * Tells the person who created a job that a run's answer did not arrive, in their private chat on the
 * target's channel (a Telegram user id is their private chat id). Nothing to do when that is the chat that
 * failed, or the job came from config; a notice that fails too is only logged.
 */
export async function notifyOwner(input: { readonly job: ScheduledJob; readonly run: JobRun; readonly outbox: Outbox; readonly logger: Logger }): Promise<boolean> {
  const { job, run } = input;
  if (job.createdBy === undefined || job.createdBy === job.target.chatId) return false;
  const target = { channel: job.target.channel, chatId: job.createdBy };
  const reason = run.deliveryError ?? run.error ?? 'unknown error';
  const delivery = await input.outbox.send({
    type: 'reply',
    target,
    kind: 'message',
    text: `Scheduled task ${job.id} ran at ${run.startedAt}, but its answer could not be delivered to ${formatTarget(job.target)}: ${reason}`,
  });
  if (!delivery.ok) input.logger.warn({ jobId: job.id, owner: formatTarget(target), error: delivery.error }, 'the owner of a scheduled task could not be told about a failed delivery');
  return delivery.ok;
}
