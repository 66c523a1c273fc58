import { z } from 'zod';
import type { Target } from '../src/events/target.js';
import { defineTool } from '../src/registry/define-tool.js';

/** cancel_task: cancels a scheduled task of this chat. */
export const cancelTaskTool = defineTool({
  name: 'cancel_task',
  description:
    'Cancel a scheduled task of this chat by its id, so it never runs again. Use list_tasks first to find the id. ' +
    'Tasks of other chats and tasks from the configuration file cannot be cancelled here.',
  input: z.object({
    id: z.string().trim().min(1).max(100).describe('The id of the task, as list_tasks shows it.'),
  }),
  risk: 'write',
  approval: 'never',
  sideEffects: true,
  describeForApproval: (call) => `Cancel scheduled task ${call.id}`,
  execute: async (call, context) => {
    const { scheduler } = context.services;
    const job = (await scheduler.list()).find((candidate) => candidate.id === call.id);
    if (job === undefined) return { ok: false, kind: 'business', error: `There is no scheduled task ${call.id}. Use list_tasks to see the ids.` };
    if (!isSameChat(job.target, context.target)) {
      return { ok: false, kind: 'business', error: `Task ${call.id} posts in another chat and can only be cancelled from there.` };
    }
    if (job.source === 'config') {
      return { ok: false, kind: 'business', error: `Task ${call.id} comes from the configuration file; remove it there instead.` };
    }
    const cancelled = await scheduler.cancel(call.id);
    if (!cancelled.ok) return { ok: false, kind: 'business', error: `Task ${call.id} was not cancelled: ${cancelled.error}` };
    return { ok: true, output: `Cancelled task ${call.id} (${job.schedule}): "${job.prompt}"` };
  },
});

// Same chat means same channel and chat id; threads inside a chat do not matter.
function isSameChat(left: Target, right: Target): boolean {
  return left.channel === right.channel && left.chatId === right.chatId;
}
