import { AgentEvent, type AgentExecutor, type ExecutionEventBus } from '@a2a-js/sdk/server';
import { TaskState } from '@a2a-js/sdk';
import type { Emit } from '../../src/events/channel.js';
import { createId } from '../../src/events/create-id.js';
import type { Logger } from '../../src/logging/create-logger.js';
import type { A2aServerStrings } from './a2a-server-strings.js';
import type { StopTaskWork } from './stop-task-work.js';
import { ownerOf } from './a2a-task-store.js';
import { agentMessage, changeFor, newTask, taskStatus, textOfParts } from './task-events.js';
import type { TaskTurns } from './task-turns.js';
import { taskChatId, taskToEvent } from './to-event.js';

/** What the executor is built from. */
export type A2aExecutorOptions = {
  readonly channel: string;
  readonly turns: TaskTurns;
  readonly strings: A2aServerStrings;
  /** The bus intake, once the channel has started. */
  readonly emit: () => Emit | undefined;
  readonly now: () => Date;
  readonly logger: Logger;
  /** The owner and context of a stored task, for a cancel after the executor returned (or after a restart). */
  readonly storedTask: (taskId: string) => Promise<{ readonly owner: string; readonly contextId: string } | undefined>;
  /** Stops the task's turn: the running one aborted, one waiting on a card closed as cancelled (the core's TurnControl). */
  readonly stopTaskWork: StopTaskWork;
};

/**
 * The SDK's AgentExecutor over echo-agent's bus: each message is queued as an unattended turn in the task's own chat
 * (durable, journaled like any turn) and the executor waits for how it comes out: an answer completes the task, a
 * failure fails it, a card or question for a person leaves it `input-required` (the channel finishes it when the turn
 * continues), a cancel cancels it and stops its work (the running turn aborted, a waiting card closed).
 */
export function createA2aExecutor(options: A2aExecutorOptions): AgentExecutor {
  // Tasks whose executor still waits, with their owner, chat and context, for cancels (the SDK names the task only).
  const unanswered = new Map<string, { readonly owner: string; readonly chatId: string; readonly contextId: string }>();
  return {
    async execute(context, bus) {
      const now = options.now();
      const task = { taskId: context.taskId, contextId: context.contextId };
      bus.publish(AgentEvent.task(context.task ?? newTask({ ...task, message: context.userMessage, now })));
      const text = textOfParts(context.userMessage.parts);
      if (text === '') {
        bus.publish(AgentEvent.statusUpdate({ ...task, status: taskStatus(TaskState.TASK_STATE_REJECTED, agentMessage(task, options.strings.noText), now), metadata: undefined }));
        return;
      }
      const owner = ownerOf(context.context);
      const chatId = taskChatId(owner, context.taskId);
      unanswered.set(context.taskId, { owner, chatId, contextId: context.contextId });
      bus.publish(AgentEvent.statusUpdate({ ...task, status: taskStatus(TaskState.TASK_STATE_WORKING, undefined, now), metadata: undefined }));
      const outcome = options.turns.wait(chatId);
      const emit = options.emit();
      const emitted = emit ? await emit(taskToEvent({ channel: options.channel, runId: createId(), owner, taskId: context.taskId, text, now })) : ({ accepted: false, reason: 'closed' } as const);
      if (!emitted.accepted) options.turns.settle(chatId, { kind: 'answered', failed: true, text: options.strings.notQueued(emitted.reason) });
      else options.logger.info({ taskId: context.taskId, owner }, 'A2A task queued');
      const settled = await outcome;
      // A cancel published its own status on the bus already.
      if (settled.kind === 'canceled') return;
      publishChange(bus, task, changeFor(settled, task, options.now()));
      unanswered.delete(context.taskId);
    },
    async cancelTask(taskId, bus) {
      const stored = unanswered.get(taskId) ?? (await options.storedTask(taskId));
      // The task's work stops first: its running turn is aborted (it then sends nothing), a card it waits on is closed
      // as cancelled for good. The executor still waiting is woken after, and the status published at once, before
      // it returns and the SDK stops reading this bus.
      if (stored !== undefined) await options.stopTaskWork({ taskId, owner: stored.owner });
      const known = unanswered.get(taskId);
      unanswered.delete(taskId);
      if (known !== undefined) options.turns.settle(known.chatId, { kind: 'canceled' });
      bus.publish(AgentEvent.statusUpdate({ taskId, contextId: stored?.contextId ?? '', status: taskStatus(TaskState.TASK_STATE_CANCELED, undefined, options.now()), metadata: undefined }));
    },
  };
}

/** Publishes an outcome on a task's bus: the answer artifact first, then the status. */
export function publishChange(bus: ExecutionEventBus, task: { readonly taskId: string; readonly contextId: string }, change: ReturnType<typeof changeFor>): void {
  if (change.artifact !== undefined) bus.publish(AgentEvent.artifactUpdate({ ...task, artifact: change.artifact, append: false, lastChunk: true, metadata: undefined }));
  bus.publish(AgentEvent.statusUpdate({ ...task, status: change.status, metadata: undefined }));
}
