import type { ScriptedHandler, ScriptedRequestBody } from '../fakes/scripted-step.js';
import { formatWallTime } from './wall-clock.js';

/** The demo model's one canned answer to "What can you do?". */
export const capabilitiesAnswer =
  "I'm echo-agent, here on a scripted demo model. I answer questions, keep notes and a todo list, fetch web pages, and run " +
  'tasks on a schedule, like reminders. Anything that changes something, such as a new scheduled task, first asks for your ' +
  'approval with buttons right here in the chat.';

/** What the demo model says to anything it has no script for. */
const unscriptedAnswer = 'This is the scripted demo model: try "What can you do?" or "Remind me to stretch in 5 seconds".';

/** The one-sentence explanation the demo model gives for an approval card. */
const explanationAnswer = 'It sets a one-time reminder that posts a message in this chat; the only risk is an unwanted message.';

const explainerPrompt = 'In one short sentence';
const reminderRequest = /remind me to (.+?) in (\d{1,4}) seconds?/i;
const scheduledPrompt = /^\[Scheduled task [^\]]+\]\s*([\s\S]*)$/;

/**
 * A deterministic stand-in for a real model that behaves plausibly for the demo conversation: answers
 * "What can you do?", turns "remind me to X in N seconds" into a schedule_task call (an ISO time N seconds
 * from now, wall clock in `timezone`), confirms once the tool ran, answers a scheduled reminder with
 * "⏰ Time to X!", and gives the approval card its one-sentence explanation.
 */
export function createDemoModel(options: { readonly timezone: string; readonly now?: () => Date }): ScriptedHandler {
  const now = options.now ?? (() => new Date());
  return (body, context) => {
    const messages = body.messages ?? [];
    const first = messages[0];
    if (first?.role === 'system' && typeof first.content === 'string' && first.content.startsWith(explainerPrompt)) return { text: explanationAnswer };

    const last = messages.at(-1);
    if (last?.role === 'tool') return { text: answerToToolResult(body, String(last.content ?? '')) };

    const scheduled = scheduledPrompt.exec(context.lastUserText);
    if (scheduled) return { text: reminderText(scheduled[1] ?? '') };

    const reminder = reminderRequest.exec(context.lastUserText);
    if (reminder) {
      const what = (reminder[1] ?? 'stretch').trim();
      const at = new Date(now().getTime() + Number(reminder[2]) * 1000);
      return { toolCalls: [{ name: 'schedule_task', arguments: { schedule: formatWallTime(at, options.timezone), prompt: `Remind the user to ${what}` } }] };
    }
    if (/what can you do/i.test(context.lastUserText)) return { text: capabilitiesAnswer };
    return { text: unscriptedAnswer };
  };
}

function answerToToolResult(body: ScriptedRequestBody, result: string): string {
  if (!result.startsWith('Scheduled task')) return `I could not set the reminder: ${result}`;
  const schedule = lastScheduleArgument(body);
  const clock = schedule === undefined ? undefined : /T(\d{2}:\d{2}:\d{2})/.exec(schedule)?.[1];
  return clock === undefined ? "Done: I'll remind you." : `Done: I'll remind you at ${clock}.`;
}

/** The `schedule` argument of the last schedule_task call the assistant made in this conversation. */
function lastScheduleArgument(body: ScriptedRequestBody): string | undefined {
  const messages = body.messages ?? [];
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const calls = messages[index]?.tool_calls;
    if (!Array.isArray(calls)) continue;
    for (const call of calls as { function?: { name?: string; arguments?: string } }[]) {
      if (call.function?.name !== 'schedule_task') continue;
      try {
        const parsed = JSON.parse(call.function.arguments ?? '{}') as { schedule?: unknown };
        if (typeof parsed.schedule === 'string') return parsed.schedule;
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

function reminderText(prompt: string): string {
  const task = /^remind the user to (.+?)\.?$/i.exec(prompt.trim());
  return task ? `⏰ Time to ${task[1]}!` : `⏰ ${prompt.trim()}`;
}
