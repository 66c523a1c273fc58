import { z } from 'zod';
import { defineTool } from '../src/registry/define-tool.js';
import { openWorkspaceFile } from './open-workspace-file.js';

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
    const opened = await openWorkspaceFile(context.services.workspaceDir, call.path, 'use list_dir to see what it holds.');
    if (!opened.ok) return { ok: false, kind: 'business', error: opened.error };
    const { handle, stats } = opened;
    const limit = call.maxBytes ?? readFileDefaultBytes;
    try {
      const buffer = Buffer.alloc(Math.min(limit, stats.size));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      const content = buffer.subarray(0, bytesRead);
      if (content.includes(0)) return { ok: false, kind: 'business', error: `${call.path} looks like a binary file, not text.` };
      const cut = stats.size > bytesRead ? `\n[Cut: showed ${bytesRead} of ${stats.size} bytes. Raise maxBytes to read more.]` : '';
      return { ok: true, output: `${content.toString('utf8')}${cut}`, metadata: { path: opened.relativePath, bytes: stats.size } };
    } finally {
      await handle.close();
    }
  },
});
