import { createEnvelope } from '../events/create-envelope.js';
import type { ScheduleFired } from '../events/inbound-event.js';
import type { ScheduledJob } from '../scheduling/scheduled-job.js';

/** The session a job's turns run in: its own, never the target chat's. */
export function jobSessionKey(jobId: string): string {
  return `cron:${jobId}`;
}

/** The job id of a job session key, or undefined for any other session. */
export function jobIdOfSession(sessionKey: string): string | undefined {
  return sessionKey.startsWith('cron:') ? sessionKey.slice('cron:'.length) : undefined;
}

/** Turns a firing into a schedule-fired event: answered in the target chat, run in the job's own session, unattended. Pure. */
export function jobToEvent(job: ScheduledJob, options: { readonly eventId: string; readonly now: Date }): ScheduleFired {
  return {
    type: 'schedule-fired',
    ...createEnvelope({
      id: options.eventId,
      channel: job.target.channel,
      chatId: job.target.chatId,
      threadId: job.target.threadId,
      sessionKey: jobSessionKey(job.id),
      origin: 'schedule',
      now: options.now,
    }),
    jobId: job.id,
    prompt: job.prompt,
    approvedContentHash: job.approvedContentHash,
    ...(job.createdBy === undefined ? {} : { createdBy: job.createdBy }),
  };
}
