import type { AgentCard } from '@a2a-js/sdk';
import { type AgentExecutor, DefaultRequestHandler, type ExecutionEventBusManager, type TaskStore } from '@a2a-js/sdk/server';
import type { StopTaskWork } from './stop-task-work.js';

/** What the request handler is built from: the SDK's parts, and how a task's owner is found and its work stopped. */
export type RequestHandlerOptions = {
  readonly card: AgentCard;
  readonly tasks: TaskStore;
  readonly executor: AgentExecutor;
  readonly buses: ExecutionEventBusManager;
  /** The stored task's owner (and context), as the executor reads it for a cancel. */
  readonly storedTask: (taskId: string) => Promise<{ readonly owner: string } | undefined>;
  readonly stopTaskWork: StopTaskWork;
};

/**
 * The SDK's request handler, with one change to `tasks/cancel`: the SDK asks the executor to stop a task only where the
 * task's request is still open (its event bus lives in this process); elsewhere it only marks the task canceled. A
 * cancel that reaches another instance than the one the task came in on (cluster mode), or comes after a restart, must
 * still stop the work: abort its turn wherever it runs, close the card it waits on. The SDK checks first that the
 * caller owns the task and that it can be canceled; only then is the work stopped.
 */
export function createRequestHandler(options: RequestHandlerOptions): DefaultRequestHandler {
  const handler = new DefaultRequestHandler(options.card, options.tasks, options.executor, options.buses);
  const cancelTask = handler.cancelTask.bind(handler);
  handler.cancelTask = async (params, context) => {
    const openHere = options.buses.getByTaskId(params.id, context) !== undefined;
    const canceled = await cancelTask(params, context);
    const owner = openHere ? undefined : (await options.storedTask(params.id))?.owner;
    if (owner !== undefined) await options.stopTaskWork({ taskId: params.id, owner });
    return canceled;
  };
  return handler;
}
