import { createEnvelope } from '../../src/events/create-envelope.js';
import type { MessageReceived } from '../../src/events/inbound-event.js';
import { createSessionKey } from '../../src/events/session-key.js';

/** The chat of one task: `<key name>/<task id>` (a task is a conversation of its own). Pure. */
export function taskChatId(owner: string, taskId: string): string {
  return `${owner}/${taskId}`;
}

/** The task id in a task's chat id, or undefined. Pure. */
export function taskIdOfChat(chatId: string): string | undefined {
  const slash = chatId.indexOf('/');
  return slash < 0 ? undefined : chatId.slice(slash + 1);
}

/**
 * A task's message as an inbound event. Every trust field is set here from the key the route authenticated, never
 * from the payload: the origin is `system` (another agent: unattended, so risky tools ask the approvers or fail
 * closed), the sender and the budgets' user are the key's, and the tools are the key's scope. Pure.
 */
export function taskToEvent(input: { readonly channel: string; readonly runId: string; readonly owner: string; readonly taskId: string; readonly text: string; readonly now: Date }): MessageReceived {
  const chatId = taskChatId(input.owner, input.taskId);
  return {
    type: 'message-received',
    ...createEnvelope({ id: input.runId, channel: input.channel, chatId, sessionKey: createSessionKey({ channel: input.channel, chatId }), origin: 'system', now: input.now }),
    sender: { id: `${input.channel}:${input.owner}`, displayName: input.owner },
    text: input.text,
    media: [],
    isGroup: false,
    mentioned: true,
    billedTo: input.owner,
    toolScope: keyToolScope(input.channel, input.owner),
  };
}

/** The tool scope of a key: `<channel>:<key name>`. Pure. */
export function keyToolScope(channel: string, owner: string): string {
  return `${channel}:${owner}`;
}
