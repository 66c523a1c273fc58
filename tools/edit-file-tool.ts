import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { z } from 'zod';
import { defineTool } from '../src/registry/define-tool.js';
import { describeHardLink } from '../src/registry/describe-hard-link.js';
import { resolveWorkspacePath } from '../src/registry/workspace-path.js';

/** Largest file edit_file changes. */
export const editFileSizeLimit = 2_000_000;

/** edit_file: replaces one exact piece of text in a workspace file. */
export const editFileTool = defineTool({
  name: 'edit_file',
  description:
    'Change part of a text file in the workspace: replace oldText with newText. oldText must appear exactly once in ' +
    'the file, so include enough surrounding lines to make it unique. Read the file first to copy oldText exactly.',
  input: z.object({
    path: z.string().min(1).max(1_000).describe('The file path, relative to the workspace folder.'),
    oldText: z.string().min(1).max(100_000).describe('The exact text to replace, including whitespace; must occur exactly once.'),
    newText: z.string().max(1_000_000).describe('The text to put in its place (empty to delete oldText).'),
  }),
  risk: 'write',
  sideEffects: true,
  describeForApproval: (call) => `Edit ${call.path} in the workspace: replace ${call.oldText.length} characters with ${call.newText.length}`,
  execute: async (call, context) => {
    const resolved = await resolveWorkspacePath(context.services.workspaceDir, call.path);
    if (!resolved.ok) return { ok: false, kind: 'business', error: resolved.error };
    let handle: Awaited<ReturnType<typeof open>>;
    try {
      // O_NOFOLLOW: a link swapped in after the check is refused; O_NONBLOCK: a FIFO cannot hang the call.
      handle = await open(resolved.path, constants.O_RDWR | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    } catch {
      return { ok: false, kind: 'business', error: `There is no editable file at ${call.path}.` };
    }
    try {
      const stats = await handle.stat();
      if (!stats.isFile()) return { ok: false, kind: 'business', error: `${call.path} is not a file.` };
      const hardLink = describeHardLink(call.path, stats.nlink);
      if (hardLink !== undefined) return { ok: false, kind: 'business', error: hardLink };
      if (stats.size > editFileSizeLimit) return { ok: false, kind: 'business', error: `${call.path} is too large to edit (${stats.size} bytes).` };
      const content = await handle.readFile('utf8');
      const first = content.indexOf(call.oldText);
      if (first === -1) return { ok: false, kind: 'business', error: `oldText does not occur in ${call.path}. Read the file and copy the text exactly.` };
      const occurrences = content.split(call.oldText).length - 1;
      if (occurrences > 1) {
        return { ok: false, kind: 'business', error: `oldText occurs ${occurrences} times in ${call.path}; include more surrounding text so it occurs once.` };
      }
      // Slicing, not String.replace: `$&` and friends in newText must stay literal.
      const updated = `${content.slice(0, first)}${call.newText}${content.slice(first + call.oldText.length)}`;
      await handle.truncate(0);
      await handle.write(updated, 0, 'utf8');
      return { ok: true, output: `Edited ${resolved.relativePath}.`, metadata: { path: resolved.relativePath } };
    } finally {
      await handle.close();
    }
  },
});
