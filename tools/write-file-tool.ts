import { constants } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { defineTool } from '../src/registry/define-tool.js';
import { describeHardLink } from '../src/registry/describe-hard-link.js';
import { resolveWorkspacePath } from '../src/registry/workspace-path.js';

/** write_file: creates or replaces a file in the workspace. */
export const writeFileTool = defineTool({
  name: 'write_file',
  description:
    'Create a file in the workspace folder, or replace its whole content. Missing parent folders are created. Paths ' +
    'are relative to the workspace; nothing outside it can be written. To change part of a file, use edit_file.',
  input: z.object({
    path: z.string().min(1).max(1_000).describe('The file path, relative to the workspace folder.'),
    content: z.string().max(1_000_000).describe('The complete new content of the file.'),
  }),
  risk: 'write',
  sideEffects: true,
  describeForApproval: (call) => `Write ${call.content.length} characters to ${call.path} in the workspace`,
  execute: async (call, context) => {
    const resolved = await resolveWorkspacePath(context.services.workspaceDir, call.path);
    if (!resolved.ok) return { ok: false, kind: 'business', error: resolved.error };
    try {
      await mkdir(path.dirname(resolved.path), { recursive: true });
      // O_NOFOLLOW: a link swapped in after the check is refused; O_NONBLOCK: a FIFO cannot hang the call.
      // No O_TRUNC: the file is truncated only after the hard-link check below.
      const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK;
      const handle = await open(resolved.path, flags, 0o644);
      try {
        const stats = await handle.stat();
        const hardLink = describeHardLink(call.path, stats.nlink);
        if (hardLink !== undefined) return { ok: false, kind: 'business', error: hardLink };
        if (!stats.isFile()) return { ok: false, kind: 'business', error: `${call.path} is not a regular file.` };
        await handle.truncate(0);
        await handle.writeFile(call.content, 'utf8');
      } finally {
        await handle.close();
      }
    } catch (error) {
      return { ok: false, kind: 'business', error: `${call.path} could not be written (${errorCode(error)}).` };
    }
    const bytes = Buffer.byteLength(call.content, 'utf8');
    return { ok: true, output: `Wrote ${bytes} bytes to ${resolved.relativePath}.`, metadata: { path: resolved.relativePath, bytes } };
  },
});

function errorCode(error: unknown): string {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : 'unknown error';
}
