import { z } from 'zod';
import type { Target } from '../src/events/target.js';
import { defineTool } from '../src/registry/define-tool.js';

/** list_tasks: lists the scheduled tasks that post in this chat. */
export const listTasksTool = defineTool({
  name: 'list_tasks',
  description:
    'List the scheduled tasks that post in this chat, with their ids, schedules, prompts and next run times. Use it ' +
    'before cancelling a task or when the person asks what is scheduled.',
  input: z.object({}),
  risk: 'read_only',
  approval: 'never',
  describeForApproval: () => 'List the scheduled tasks of this chat',
  execute: async (_call, context) => {
    const jobs = (await context.services.scheduler.list({ target: context.target })).filter((job) => isSameChat(job.target, context.target));
    if (jobs.length === 0) return { ok: true, output: 'No tasks are scheduled in this chat.' };
    const lines = jobs.map((job) => {
      const prompt = job.prompt.length > 200 ? `${job.prompt.slice(0, 200)}…` : job.prompt;
      const next = job.nextRunAt === undefined ? '' : `, next run ${job.nextRunAt}`;
      return `- ${job.id}: ${job.schedule} (${job.timezone}${next}) "${prompt}"`;
    });
    return { ok: true, output: lines.join('\n'), metadata: { count: jobs.length } };
  },
});

// The scheduler filters by target already; this keeps another chat's tasks out even if it does not.
function isSameChat(left: Target, right: Target): boolean {
  return left.channel === right.channel && left.chatId === right.chatId;
}
