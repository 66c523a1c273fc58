import { z } from 'zod';
import { defineTool } from '../src/registry/define-tool.js';
import type { ToolContext } from '../src/registry/tool-context.js';
import type { ToolOutcome } from '../src/registry/tool-outcome.js';

/** One remembered fact. */
export type MemoryEntry = { readonly value: string; readonly updatedAt: string };

/** Everything remembered about one person: key to entry. */
export type MemoryRecord = Readonly<Record<string, MemoryEntry>>;

/** Most entries one person may have. */
export const memoryEntryLimit = 200;
/** Longest value one entry may hold. */
export const memoryValueLimit = 4_000;
// Bounds what one recall puts in front of the model.
const recallOutputLimit = 16_000;

const input = z.object({
  action: z
    .enum(['remember', 'recall', 'forget'])
    .describe('remember: store a fact under a key; recall: look facts up; forget: delete the fact under a key.'),
  key: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .describe('A short name for the fact, such as "timezone" or "favourite editor". Required for remember and forget; for recall, reads exactly this key.'),
  value: z.string().max(memoryValueLimit).optional().describe('The fact to store. Required for remember.'),
  query: z
    .string()
    .max(200)
    .optional()
    .describe('For recall: words to search for in keys and values (case-insensitive). Leave out to list everything.'),
});

type MemoryInput = z.output<typeof input>;

/** memory: durable facts about the person, kept across conversations. */
export const memoryTool = defineTool({
  name: 'memory',
  description:
    'Remember facts about the person you are talking to across conversations: preferences, names, recurring details. ' +
    'Use remember when they tell you something worth keeping, recall before answering questions that depend on it, ' +
    'and forget when they ask you to or a fact is outdated. Memory belongs to this person only.',
  input,
  risk: 'write',
  approval: 'never',
  sideEffects: true,
  describeForApproval: (call) => {
    if (call.action === 'remember') return `Remember "${call.key ?? ''}": "${call.value ?? ''}"`;
    if (call.action === 'forget') return `Forget "${call.key ?? ''}"`;
    return call.query === undefined ? 'List what is remembered' : `Search memory for "${call.query}"`;
  },
  execute: async (call, context) => {
    if (call.action === 'remember') return remember(call, context);
    if (call.action === 'forget') return forget(call, context);
    return recall(call, context);
  },
});

function memoryKey(context: ToolContext): string {
  return `${context.channel}:${context.userId}`;
}

function namespace(context: ToolContext) {
  return context.services.state<MemoryRecord>('memory');
}

// Entries are rebuilt with Object.fromEntries so a key such as "__proto__" stays an ordinary key.
function toMap(record: MemoryRecord | undefined): Map<string, MemoryEntry> {
  return new Map(Object.entries(record ?? {}));
}

async function remember(call: MemoryInput, context: ToolContext): Promise<ToolOutcome> {
  const { key, value } = call;
  if (key === undefined) return { ok: false, kind: 'business', error: 'remember needs a key to store the fact under.' };
  if (value === undefined || value.trim() === '') return { ok: false, kind: 'business', error: 'remember needs a value: the fact to store.' };
  let full = false;
  await namespace(context).update(memoryKey(context), (current) => {
    const entries = toMap(current);
    if (!entries.has(key) && entries.size >= memoryEntryLimit) {
      full = true;
      return current;
    }
    entries.set(key, { value, updatedAt: context.services.now().toISOString() });
    return Object.fromEntries(entries);
  });
  if (full) {
    return { ok: false, kind: 'business', error: `Memory is full (${memoryEntryLimit} facts). Forget something outdated first.` };
  }
  return { ok: true, output: `Remembered "${key}".` };
}

async function forget(call: MemoryInput, context: ToolContext): Promise<ToolOutcome> {
  const { key } = call;
  if (key === undefined) return { ok: false, kind: 'business', error: 'forget needs the key of the fact to delete.' };
  let found = false;
  await namespace(context).update(memoryKey(context), (current) => {
    const entries = toMap(current);
    found = entries.delete(key);
    if (!found) return current;
    return entries.size === 0 ? undefined : Object.fromEntries(entries);
  });
  if (!found) return { ok: false, kind: 'business', error: `Nothing is remembered under "${key}".` };
  return { ok: true, output: `Forgot "${key}".` };
}

async function recall(call: MemoryInput, context: ToolContext): Promise<ToolOutcome> {
  const entries = toMap(await namespace(context).get(memoryKey(context)));
  if (call.key !== undefined) {
    const entry = entries.get(call.key);
    if (entry === undefined) return { ok: true, output: `Nothing is remembered under "${call.key}".` };
    return { ok: true, output: formatEntry(call.key, entry) };
  }
  const query = call.query?.trim().toLowerCase() ?? '';
  const matches = [...entries].filter(([key, entry]) => query === '' || key.toLowerCase().includes(query) || entry.value.toLowerCase().includes(query));
  if (matches.length === 0) {
    return { ok: true, output: query === '' ? 'Nothing is remembered yet.' : `Nothing remembered matches "${call.query}".` };
  }
  matches.sort(([, left], [, right]) => right.updatedAt.localeCompare(left.updatedAt));
  const lines: string[] = [];
  let length = 0;
  for (const [key, entry] of matches) {
    const line = formatEntry(key, entry);
    if (length + line.length > recallOutputLimit) {
      lines.push(`[${matches.length - lines.length} more not shown; recall with a query to narrow it down.]`);
      break;
    }
    lines.push(line);
    length += line.length + 1;
  }
  return { ok: true, output: lines.join('\n'), metadata: { matches: matches.length } };
}

function formatEntry(key: string, entry: MemoryEntry): string {
  return `- ${key}: ${entry.value} (updated ${entry.updatedAt})`;
}
