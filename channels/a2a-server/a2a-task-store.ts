import { type ListTasksRequest, type ListTasksResponse, Task } from '@a2a-js/sdk';
import type { ServerCallContext, TaskStore } from '@a2a-js/sdk/server';
import type { KeyValueNamespace } from '../../src/store/key-value-namespace.js';

/** A task as stored: the SDK's JSON form and the key that owns it (no other key sees it). */
export type StoredA2aTask = { readonly owner: string; readonly task: unknown };

/** How long a task is kept after its last change. */
export const a2aTaskTtlMs = 30 * 24 * 60 * 60 * 1000;

/** The SDK's task store over echo-agent's store (SQLite or PostgreSQL): tasks survive restarts; each key sees its own. */
export type A2aTaskStore = TaskStore & {
  /** A task whatever its owner, for the channel's own updates (a turn that finished after its request ended). */
  read(taskId: string): Promise<{ readonly owner: string; readonly task: Task } | undefined>;
  write(owner: string, task: Task): Promise<void>;
};

/** The key a call context stands for: the user the route put there. */
export function ownerOf(context: ServerCallContext): string {
  return context.user?.isAuthenticated === true ? context.user.userName : '';
}

/** Creates the task store over a namespace of the store. */
export function createA2aTaskStore(namespace: KeyValueNamespace<StoredA2aTask>): A2aTaskStore {
  const read = async (taskId: string) => {
    const stored = await namespace.get(taskId);
    return stored === undefined ? undefined : { owner: stored.owner, task: Task.fromJSON(stored.task) };
  };
  const write = (owner: string, task: Task) => namespace.set(task.id, { owner, task: Task.toJSON(task) }, a2aTaskTtlMs);
  return {
    read,
    write,
    async save(task, context) {
      const owner = ownerOf(context);
      const current = await namespace.get(task.id);
      // A task belongs to the key that created it; another key's save never takes it over.
      if (current !== undefined && current.owner !== owner) return;
      await write(owner, task);
    },
    async load(taskId, context) {
      const found = await read(taskId);
      return found !== undefined && found.owner === ownerOf(context) ? found.task : undefined;
    },
    // Listing is not offered (the card does not advertise it): tasks are read by id.
    list: async (_params: ListTasksRequest): Promise<ListTasksResponse> => ({ tasks: [], nextPageToken: '', pageSize: 0, totalSize: 0 }),
  };
}
