import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';

/** A path confined to the workspace (absolute, symlinks of existing parts resolved), or why not. */
export type WorkspacePath =
  | { readonly ok: true; readonly path: string; readonly relativePath: string }
  | { readonly ok: false; readonly error: string };

/**
 * Resolves a path a tool was given against the workspace and refuses anything that leaves it:
 * absolute paths elsewhere, `..` escapes, and symbolic links (of the nearest existing ancestor)
 * that point outside.
 */
export async function resolveWorkspacePath(workspaceDir: string, requestedPath: string): Promise<WorkspacePath> {
  if (requestedPath.includes('\0')) return { ok: false, error: 'The path contains a NUL character.' };
  let root: string;
  try {
    root = await realpath(workspaceDir);
  } catch {
    return { ok: false, error: 'The workspace folder does not exist.' };
  }

  const lexical = path.resolve(workspaceDir, requestedPath === '' ? '.' : requestedPath);
  if (!isInside(path.resolve(workspaceDir), lexical)) {
    return { ok: false, error: `The path ${requestedPath} is outside the workspace.` };
  }

  // Resolve symbolic links of the deepest part that exists; the rest does not exist yet.
  const missing: string[] = [];
  let existing = lexical;
  let real: string | undefined;
  while (real === undefined) {
    try {
      real = await realpath(existing);
    } catch (error) {
      if (!isNotFound(error)) return { ok: false, error: `The path ${requestedPath} cannot be read.` };
      // A broken symbolic link "does not exist" to realpath, yet writing through it lands wherever it points.
      if (await exists(existing)) {
        return { ok: false, error: `The path ${requestedPath} goes through a broken symbolic link.` };
      }
      const parent = path.dirname(existing);
      if (parent === existing) return { ok: false, error: `The path ${requestedPath} cannot be read.` };
      missing.unshift(path.basename(existing));
      existing = parent;
    }
  }
  const resolved = path.join(real, ...missing);
  if (!isInside(root, resolved)) {
    return { ok: false, error: `The path ${requestedPath} leads outside the workspace through a symbolic link.` };
  }
  return { ok: true, path: resolved, relativePath: path.relative(root, resolved) || '.' };
}

function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === '' || (!relative.startsWith(`..${path.sep}`) && relative !== '..' && !path.isAbsolute(relative));
}

async function exists(candidate: string): Promise<boolean> {
  try {
    await lstat(candidate);
    return true;
  } catch {
    return false;
  }
}

function isNotFound(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && (error.code === 'ENOENT' || error.code === 'ENOTDIR');
}
