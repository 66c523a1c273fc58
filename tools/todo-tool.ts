import { z } from 'zod';
import { defineTool } from '../src/registry/define-tool.js';
import type { ToolOutcome } from '../src/registry/tool-outcome.js';

/** One item of a session's to-do list. */
export type TodoItem = { readonly id: number; readonly text: string; readonly done: boolean; readonly createdAt: string };

/** A session's to-do list; `nextId` keeps ids short and never reused. */
export type TodoList = { readonly nextId: number; readonly items: readonly TodoItem[] };

/** Most items one list may hold. */
export const todoItemLimit = 100;

const input = z.object({
  action: z
    .enum(['add', 'list', 'done', 'remove'])
    .describe('add: add an item; list: show the list; done: mark an item finished; remove: delete an item.'),
  text: z.string().trim().min(1).max(500).optional().describe('For add: what needs doing, in one line.'),
  id: z.number().int().min(1).optional().describe('For done and remove: the item number shown by list.'),
});

/** todo: a to-do list for this conversation, for planning multi-step work. */
export const todoTool = defineTool({
  name: 'todo',
  description:
    'Keep a to-do list for this conversation: add steps of a plan, list them, mark them done, or remove them. Use it ' +
    'to track multi-step work so nothing is forgotten. Items are numbered; refer to them by that number.',
  input,
  risk: 'write',
  approval: 'never',
  sideEffects: true,
  describeForApproval: (call) => {
    if (call.action === 'add') return `Add to the to-do list: "${call.text ?? ''}"`;
    if (call.action === 'list') return 'Show the to-do list';
    return `${call.action === 'done' ? 'Mark done' : 'Remove'} to-do item #${call.id ?? '?'}`;
  },
  execute: async (call, context): Promise<ToolOutcome> => {
    const lists = context.services.state<TodoList>('todo');
    if (call.action === 'list') return { ok: true, output: formatList(await lists.get(context.sessionKey)) };

    if (call.action === 'add') {
      const { text } = call;
      if (text === undefined) return { ok: false, kind: 'business', error: 'add needs the text of the item.' };
      let added: TodoItem | undefined;
      await lists.update(context.sessionKey, (current) => {
        const list = current ?? { nextId: 1, items: [] };
        if (list.items.length >= todoItemLimit) return current;
        added = { id: list.nextId, text, done: false, createdAt: context.services.now().toISOString() };
        return { nextId: list.nextId + 1, items: [...list.items, added] };
      });
      if (added === undefined) return { ok: false, kind: 'business', error: `The list is full (${todoItemLimit} items). Remove finished items first.` };
      return { ok: true, output: `Added #${added.id}: ${added.text}` };
    }

    const { id } = call;
    if (id === undefined) return { ok: false, kind: 'business', error: `${call.action} needs the id of the item.` };
    let found = false;
    const updated = await lists.update(context.sessionKey, (current) => {
      if (current === undefined) return undefined;
      found = current.items.some((item) => item.id === id);
      if (!found) return current;
      const items =
        call.action === 'remove' ? current.items.filter((item) => item.id !== id) : current.items.map((item) => (item.id === id ? { ...item, done: true } : item));
      return { nextId: current.nextId, items };
    });
    if (!found) return { ok: false, kind: 'business', error: `There is no item #${id}. Use list to see the items.` };
    const verb = call.action === 'remove' ? 'Removed' : 'Marked done';
    return { ok: true, output: `${verb} #${id}.\n${formatList(updated)}` };
  },
});

function formatList(list: TodoList | undefined): string {
  if (list === undefined || list.items.length === 0) return 'The to-do list is empty.';
  return list.items.map((item) => `#${item.id} [${item.done ? 'x' : ' '}] ${item.text}`).join('\n');
}
