import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { z } from 'zod';
import { defineTool } from '../src/registry/define-tool.js';
import { describeHardLink } from '../src/registry/describe-hard-link.js';
import { resolveWorkspacePath } from '../src/registry/workspace-path.js';

/** Bytes read_file returns when the call does not say. */
export const readFileDefaultBytes = 64_000;

/** read_file: reads a text file of the workspace. */
export const readFileTool = defineTool({
  name: 'read_file',
  description:
    'Read a text file from the workspace folder. Paths are relative to the workspace; files outside it cannot be read. ' +
    `Long files are cut at maxBytes (default ${readFileDefaultBytes}).`,
  input: z.object({
    path: z.string().min(1).max(1_000).describe('The file path, relative to the workspace folder.'),
    maxBytes: z
      .number()
      .int()
      .min(1)
      .max(1_000_000)
      .optional()
      .describe(`Read at most this many bytes from the start of the file (default ${readFileDefaultBytes}).`),
  }),
  risk: 'read_only',
  approval: 'never',
  describeForApproval: (call) => `Read ${call.path} from the workspace`,
  execute: async (call, context) => {
    const resolved = await resolveWorkspacePath(context.services.workspaceDir, call.path);
    if (!resolved.ok) return { ok: false, kind: 'business', error: resolved.error };
    const limit = call.maxBytes ?? readFileDefaultBytes;
    let handle: Awaited<ReturnType<typeof open>>;
    try {
      // O_NOFOLLOW: a link swapped in after the check is refused; O_NONBLOCK: a FIFO cannot hang the call.
      handle = await open(resolved.path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    } catch {
      return { ok: false, kind: 'business', error: `There is no readable file at ${call.path}.` };
    }
    try {
      const stats = await handle.stat();
      if (stats.isDirectory()) return { ok: false, kind: 'business', error: `${call.path} is a folder; use list_dir to see what it holds.` };
      if (!stats.isFile()) return { ok: false, kind: 'business', error: `${call.path} is not a regular file.` };
      const hardLink = describeHardLink(call.path, stats.nlink);
      if (hardLink !== undefined) return { ok: false, kind: 'business', error: hardLink };
      const buffer = Buffer.alloc(Math.min(limit, stats.size));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      const content = buffer.subarray(0, bytesRead);
      if (content.includes(0)) return { ok: false, kind: 'business', error: `${call.path} looks like a binary file, not text.` };
      const cut = stats.size > bytesRead ? `\n[Cut: showed ${bytesRead} of ${stats.size} bytes. Raise maxBytes to read more.]` : '';
      return { ok: true, output: `${content.toString('utf8')}${cut}`, metadata: { path: resolved.relativePath, bytes: stats.size } };
    } finally {
      await handle.close();
    }
  },
});
