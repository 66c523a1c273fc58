import { createSessionKey } from '../../src/events/session-key.js';
import type { TurnControl } from '../../src/events/turn-control.js';
import type { Logger } from '../../src/logging/create-logger.js';
import { taskChatId } from './to-event.js';

/** Stops a canceled task's work: its running turn aborted (on whichever instance runs it), a card it waits on closed. */
export type StopTaskWork = (task: { readonly taskId: string; readonly owner: string }) => Promise<void>;

/** Creates the stop the executor and the request handler share: the core's TurnControl on the task's own chat. */
export function createStopTaskWork(options: { readonly channel: string; readonly turnControl: TurnControl; readonly logger: Logger }): StopTaskWork {
  return async ({ taskId, owner }) => {
    const chatId = taskChatId(owner, taskId);
    const stopped = await options.turnControl.cancel({ sessionKey: createSessionKey({ channel: options.channel, chatId }), by: owner });
    options.logger.info({ taskId, owner, aborted: stopped.aborted, closed: stopped.closed }, 'A2A task canceled');
  };
}
