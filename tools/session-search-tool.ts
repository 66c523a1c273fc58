import { z } from 'zod';
import { defineTool } from '../src/registry/define-tool.js';

/** Most matches one search returns. */
export const sessionSearchMatchLimit = 10;
// Characters of context kept on each side of a match.
const snippetRadius = 80;

/** session_search: finds earlier messages of this conversation that mention some words. */
export const sessionSearchTool = defineTool({
  name: 'session_search',
  description:
    'Search the earlier messages of this conversation (yours and the person\'s) for some words, case-insensitively. ' +
    `Use it to find something said earlier that is no longer in view. Returns up to ${sessionSearchMatchLimit} matches, newest first.`,
  input: z.object({
    query: z.string().trim().min(1).max(200).describe('The words to look for, matched as one piece of text.'),
  }),
  risk: 'read_only',
  approval: 'never',
  describeForApproval: (call) => `Search this conversation for "${call.query}"`,
  execute: async (call, context) => {
    const needle = call.query.toLowerCase();
    const history = await context.services.history();
    const matches: string[] = [];
    let total = 0;
    for (let index = history.length - 1; index >= 0; index -= 1) {
      const message = history[index];
      if (message === undefined || (message.role !== 'user' && message.role !== 'assistant')) continue;
      const position = message.content.toLowerCase().indexOf(needle);
      if (position === -1) continue;
      total += 1;
      if (matches.length < sessionSearchMatchLimit) matches.push(`[${message.role}] ${snippet(message.content, position, needle.length)}`);
    }
    if (total === 0) return { ok: true, output: `No earlier message mentions "${call.query}".`, metadata: { matches: 0 } };
    const more = total > matches.length ? `\n[${total - matches.length} older matches not shown.]` : '';
    return { ok: true, output: `${matches.join('\n')}${more}`, metadata: { matches: total } };
  },
});

function snippet(content: string, position: number, length: number): string {
  const start = Math.max(0, position - snippetRadius);
  const end = Math.min(content.length, position + length + snippetRadius);
  const text = content.slice(start, end).replace(/\s+/g, ' ').trim();
  return `${start > 0 ? '…' : ''}${text}${end < content.length ? '…' : ''}`;
}
