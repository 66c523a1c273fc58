import path from 'node:path';
import { z } from 'zod';
import { detectFileType, fileTypeHeadBytes } from '../src/media/detect-file-type.js';
import { defineTool } from '../src/registry/define-tool.js';
import { openWorkspaceFile } from './open-workspace-file.js';

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
    const opened = await openWorkspaceFile(context.services.workspaceDir, call.path, 'name a file in it.');
    if (!opened.ok) return { ok: false, kind: 'business', error: opened.error };
    const { handle, stats } = opened;
    let file: { path: string; fileName: string; mediaType: string; sizeBytes: number };
    try {
      if (stats.size === 0) return { ok: false, kind: 'business', error: `${call.path} is empty.` };
      const head = Buffer.alloc(Math.min(fileTypeHeadBytes, stats.size));
      const { bytesRead } = await handle.read(head, 0, head.length, 0);
      file = { path: opened.path, fileName: path.basename(opened.path), mediaType: detectFileType(head.subarray(0, bytesRead)).mediaType, sizeBytes: stats.size };
    } finally {
      await handle.close();
    }
    const delivery = await context.services.sendFile({ ...file, ...(call.caption ? { caption: call.caption } : {}) });
    if (!delivery.ok) return { ok: false, kind: delivery.retryable ? 'infrastructure' : 'business', error: `The file was not delivered: ${delivery.error}` };
    return { ok: true, output: `Sent ${opened.relativePath} (${file.mediaType}, ${file.sizeBytes} bytes).`, metadata: { messageId: delivery.messageId, path: opened.relativePath } };
  },
});
