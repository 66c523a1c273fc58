import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { detectFileType, fileTypeHeadBytes } from '../src/media/detect-file-type.js';
import { defineTool } from '../src/registry/define-tool.js';
import { describeHardLink } from '../src/registry/describe-hard-link.js';
import { resolveWorkspacePath } from '../src/registry/workspace-path.js';

/** send_file: sends a file of the workspace to this conversation, as a photo or a document by its content. */
export const sendFileTool = defineTool({
  name: 'send_file',
  description:
    'Send a file from the workspace folder to this conversation (an image is shown as a photo where the chat can, anything else as a document). ' +
    'Paths are relative to the workspace; files outside it cannot be sent. Use it when the person asked for a file or one says more than text.',
  input: z.object({
    path: z.string().min(1).max(1_000).describe('The file path, relative to the workspace folder.'),
    caption: z.string().max(1_000).optional().describe('A short caption shown with the file.'),
  }),
  risk: 'write',
  sideEffects: true,
  describeForApproval: (call) => `Send ${call.path} from the workspace to this chat${call.caption ? ` with the caption "${call.caption}"` : ''}`,
  execute: async (call, context) => {
    const resolved = await resolveWorkspacePath(context.services.workspaceDir, call.path);
    if (!resolved.ok) return { ok: false, kind: 'business', error: resolved.error };
    let handle: Awaited<ReturnType<typeof open>>;
    try {
      // O_NOFOLLOW: a link swapped in after the check is refused; O_NONBLOCK: a FIFO cannot hang the call.
      handle = await open(resolved.path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    } catch {
      return { ok: false, kind: 'business', error: `There is no readable file at ${call.path}.` };
    }
    let file: { path: string; fileName: string; mediaType: string; sizeBytes: number };
    try {
      const stats = await handle.stat();
      if (!stats.isFile()) return { ok: false, kind: 'business', error: `${call.path} is not a regular file.` };
      const hardLink = describeHardLink(call.path, stats.nlink);
      if (hardLink !== undefined) return { ok: false, kind: 'business', error: hardLink };
      if (stats.size === 0) return { ok: false, kind: 'business', error: `${call.path} is empty.` };
      const head = Buffer.alloc(Math.min(fileTypeHeadBytes, stats.size));
      const { bytesRead } = await handle.read(head, 0, head.length, 0);
      file = { path: resolved.path, fileName: path.basename(resolved.path), mediaType: detectFileType(head.subarray(0, bytesRead)).mediaType, sizeBytes: stats.size };
    } finally {
      await handle.close();
    }
    const delivery = await context.services.sendFile({ ...file, ...(call.caption ? { caption: call.caption } : {}) });
    if (!delivery.ok) return { ok: false, kind: delivery.retryable ? 'infrastructure' : 'business', error: `The file was not delivered: ${delivery.error}` };
    return { ok: true, output: `Sent ${resolved.relativePath} (${file.mediaType}, ${file.sizeBytes} bytes).`, metadata: { messageId: delivery.messageId, path: resolved.relativePath } };
  },
});
