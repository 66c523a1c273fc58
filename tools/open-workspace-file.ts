import { constants } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { describeHardLink } from '../src/registry/describe-hard-link.js';
import { resolveWorkspacePath } from '../src/registry/workspace-path.js';

/** A regular workspace file opened for reading, or why not (a value the model reads). */
export type OpenedWorkspaceFile =
  | { readonly ok: true; readonly handle: FileHandle; readonly stats: Stats; readonly relativePath: string; readonly path: string }
  | { readonly ok: false; readonly error: string };

/**
 * Opens a file of the workspace for reading: the path confined to the workspace, no link followed, a regular file
 * with one name only. The caller closes the handle. `folderHint` is said when the path is a folder.
 */
export async function openWorkspaceFile(workspaceDir: string, requestedPath: string, folderHint: string): Promise<OpenedWorkspaceFile> {
  const resolved = await resolveWorkspacePath(workspaceDir, requestedPath);
  if (!resolved.ok) return resolved;
  let handle: FileHandle;
  try {
    // O_NOFOLLOW: a link swapped in after the check is refused; O_NONBLOCK: a FIFO cannot hang the call.
    handle = await open(resolved.path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return { ok: false, error: `There is no readable file at ${requestedPath}.` };
  }
  const stats = await handle.stat();
  const problem = stats.isDirectory() ? `${requestedPath} is a folder; ${folderHint}` : !stats.isFile() ? `${requestedPath} is not a regular file.` : describeHardLink(requestedPath, stats.nlink);
  if (problem !== undefined) {
    await handle.close();
    return { ok: false, error: problem };
  }
  return { ok: true, handle, stats, relativePath: resolved.relativePath, path: resolved.path };
}
