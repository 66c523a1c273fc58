import { createShortId } from '../events/create-id.js';
import type { Target } from '../events/target.js';
import type { ScheduledJob, SchedulerPort } from '../scheduling/scheduled-job.js';
import { approvedContentOf } from './content-hash.js';
import type { JobStore, StoredJob } from './job-store.js';
import { isOneTimeSchedule, parseSchedule } from './parse-schedule.js';

/** Most tool-created jobs one chat may have. */
export const maxJobsPerChat = 50;

/** What the port is built from; `onCreated` / `onCancelled` arm and disarm timers. */
export type SchedulerPortOptions = {
  readonly jobs: JobStore;
  readonly defaultTimezone: string;
  readonly now: () => Date;
  readonly onCreated: (job: StoredJob) => void;
  readonly onCancelled: (jobId: string) => void;
};

/** The scheduler as tools see it: validate, create (bound to the approved content), list, cancel. */
export function createSchedulerPort(options: SchedulerPortOptions): SchedulerPort {
  const validate: SchedulerPort['validate'] = (schedule, timezone) => {
    const parsed = parseSchedule(schedule, timezone ?? options.defaultTimezone);
    if (!parsed.ok) return parsed;
    if (parsed.kind === 'recurring') return { ok: true, nextRunAt: parsed.nextRunAt.toISOString() };
    if (parsed.at.getTime() <= options.now().getTime()) return { ok: false, error: `${parsed.at.toISOString()} has already passed.` };
    return { ok: true, nextRunAt: parsed.at.toISOString() };
  };

  return {
    validate,
    async create(request) {
      const timezone = request.timezone ?? options.defaultTimezone;
      const validation = validate(request.schedule, timezone);
      if (!validation.ok) return validation;
      const approved = approvedContentOf({ schedule: request.schedule, prompt: request.prompt, timezone, defaultTimezone: options.defaultTimezone, approvedContentHash: request.approvedContentHash });
      if (!approved.ok) return approved;
      const target: Target = request.target.threadId === undefined ? { channel: request.target.channel, chatId: request.target.chatId } : { channel: request.target.channel, chatId: request.target.chatId, threadId: request.target.threadId };
      const existing = (await options.jobs.all()).filter((job) => job.source === 'tool' && !job.done && isSameChat(job.target, target));
      if (existing.length >= maxJobsPerChat) return { ok: false, error: `this chat already has ${maxJobsPerChat} scheduled tasks; cancel one first.` };
      const job: StoredJob = {
        id: `task-${createShortId()}`,
        schedule: request.schedule,
        timezone,
        prompt: request.prompt,
        target,
        source: 'tool',
        createdBy: request.createdBy,
        createdAt: options.now().toISOString(),
        approvedContentHash: approved.hash,
        timezoneApproved: approved.content.timezoneApproved,
        catchUp: isOneTimeSchedule(request.schedule) ? 'run-once' : 'skip',
        nextRunAt: validation.nextRunAt,
      };
      await options.jobs.put(job);
      options.onCreated(job);
      return { ok: true, job: toPortJob(job) };
    },
    async list(filter) {
      const jobs = (await options.jobs.all()).filter((job) => !job.done && (filter?.target === undefined || isSameChat(job.target, filter.target)));
      return jobs.map(toPortJob);
    },
    async cancel(id) {
      const job = await options.jobs.get(id);
      if (!job) return { ok: false, error: `there is no scheduled task ${id}.` };
      if (job.source === 'config') return { ok: false, error: `task ${id} comes from the configuration file; remove it there.` };
      await options.jobs.remove(id);
      options.onCancelled(id);
      return { ok: true, job: toPortJob(job) };
    },
  };
}

/** A stored job as the port shows it, with its next run worked out from the clock now. */
export function toPortJob(job: StoredJob): ScheduledJob {
  const { done: _done, timezoneApproved: _timezoneApproved, recentRuns: _recentRuns, ...portJob } = job;
  return { ...portJob, nextRunAt: nextRunOf(job)?.toISOString() };
}

/** When a job runs next: undefined for a spent one-time job or an invalid schedule. */
export function nextRunOf(job: StoredJob): Date | undefined {
  if (job.done) return undefined;
  const parsed = parseSchedule(job.schedule, job.timezone);
  if (!parsed.ok) return undefined;
  return parsed.kind === 'once' ? parsed.at : parsed.nextRunAt;
}

function isSameChat(left: Target, right: Target): boolean {
  return left.channel === right.channel && left.chatId === right.chatId;
}
