import { lstat, readdir, readlink } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { defineTool } from '../src/registry/define-tool.js';
import { resolveWorkspacePath } from '../src/registry/workspace-path.js';

/** Most entries one listing shows. */
export const listDirEntryLimit = 500;

/** list_dir: lists a folder of the workspace. */
export const listDirTool = defineTool({
  name: 'list_dir',
  description:
    'List the files and folders in a workspace folder, with file sizes. Folders end with "/". Paths are relative to ' +
    'the workspace; leave the path out to list the workspace itself.',
  input: z.object({
    path: z.string().max(1_000).optional().describe('The folder to list, relative to the workspace. Default: the workspace itself.'),
  }),
  risk: 'read_only',
  approval: 'never',
  describeForApproval: (call) => `List ${call.path ?? 'the workspace'}`,
  execute: async (call, context) => {
    const resolved = await resolveWorkspacePath(context.services.workspaceDir, call.path ?? '.');
    if (!resolved.ok) return { ok: false, kind: 'business', error: resolved.error };
    let names: string[];
    try {
      names = (await readdir(resolved.path)).sort((left, right) => left.localeCompare(right));
    } catch {
      return { ok: false, kind: 'business', error: `There is no folder at ${call.path ?? '.'}.` };
    }
    if (names.length === 0) return { ok: true, output: `${resolved.relativePath === '.' ? 'The workspace' : resolved.relativePath} is empty.` };
    const lines: string[] = [];
    for (const name of names.slice(0, listDirEntryLimit)) {
      const full = path.join(resolved.path, name);
      const stats = await lstat(full).catch(() => undefined);
      if (stats === undefined) continue;
      if (stats.isDirectory()) lines.push(`${name}/`);
      else if (stats.isSymbolicLink()) lines.push(`${name} -> ${await readlink(full).catch(() => '?')}`);
      else lines.push(`${name} (${stats.size} bytes)`);
    }
    if (names.length > listDirEntryLimit) lines.push(`[${names.length - listDirEntryLimit} more entries not shown.]`);
    return { ok: true, output: lines.join('\n'), metadata: { entries: names.length } };
  },
});
