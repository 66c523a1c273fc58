import { z } from 'zod';
import { hashToolCall } from '../src/registry/canonical-json.js';
import { defineTool } from '../src/registry/define-tool.js';

// An ISO 8601 date-time (a one-time job); anything else is read as a cron expression.
const isoTime = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i;
// The approval card shows the prompt; very long ones are cut (the exact text is in the arguments).
const summaryPromptLimit = 500;

/** True when a schedule is an ISO 8601 time (a one-time job) rather than a cron expression. */
export function isOneTimeSchedule(schedule: string): boolean {
  return isoTime.test(schedule.trim());
}

/** schedule_task: creates a recurring or one-time job that runs a prompt and posts the result in this chat. */
export const scheduleTaskTool = defineTool({
  name: 'schedule_task',
  description:
    'Create a recurring or one-time task: at the scheduled time a prompt runs as if sent to you, and the answer is ' +
    'posted in this chat. Use a cron expression (5 or 6 fields, e.g. "0 9 * * 1-5" for weekdays at 09:00) for repeating ' +
    'tasks, or an ISO 8601 time (e.g. "2030-01-31T09:00:00") for a single run. A person approves every new task.',
  input: z.object({
    schedule: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .describe('A cron expression with 5 or 6 fields for a repeating task, or an ISO 8601 date-time for a single run.'),
    prompt: z
      .string()
      .trim()
      .min(1)
      .max(4_000)
      .describe('What to do at each run, written as an instruction to yourself, e.g. "Summarise the weather in Paris".'),
    timezone: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .describe('IANA time zone the schedule is read in, e.g. "Europe/Paris". Leave out for the default time zone.'),
  }),
  risk: 'write',
  capabilities: ['scheduler.write'],
  approval: 'always',
  sideEffects: true,
  timeoutMs: 10_000,
  describeForApproval: (call, facts) => {
    const prompt = call.prompt.length > summaryPromptLimit ? `${call.prompt.slice(0, summaryPromptLimit)}…` : call.prompt;
    const zone = call.timezone ?? facts.timezone;
    if (isOneTimeSchedule(call.schedule)) return `Once at ${call.schedule} (${zone}): "${prompt}"`;
    return `Every ${call.schedule} (${zone}): "${prompt}"`;
  },
  execute: async (call, context) => {
    const { scheduler } = context.services;
    const timezone = call.timezone ?? context.services.timezone;
    const validation = scheduler.validate(call.schedule, timezone);
    if (!validation.ok) return { ok: false, kind: 'business', error: `The schedule "${call.schedule}" is not valid: ${validation.error}` };
    const created = await scheduler.create({
      schedule: call.schedule,
      prompt: call.prompt,
      timezone,
      target: context.target,
      createdBy: context.userId,
      // Binds the job to exactly what the person approved: the arguments of this call, as validated.
      approvedContentHash: hashToolCall('schedule_task', call),
    });
    if (!created.ok) return { ok: false, kind: 'business', error: `The task was not created: ${created.error}` };
    const { job } = created;
    const nextRun = job.nextRunAt ?? validation.nextRunAt;
    return {
      ok: true,
      output: `Scheduled task ${job.id} (${job.schedule}, ${job.timezone}). Next run: ${nextRun ?? 'not known yet'}.`,
      metadata: { jobId: job.id, nextRunAt: nextRun },
    };
  },
});
