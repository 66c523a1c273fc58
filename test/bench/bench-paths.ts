import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** Where the compiled tree lives (`dist/`, or another --outDir): this file is at <buildRoot>/test/bench/. */
export const buildRoot = resolve(import.meta.dirname, '..', '..');

/** The repository root (config/, .env): the nearest folder above the build holding config/default.yaml. */
export const repositoryRoot = findRepositoryRoot(buildRoot);

/** A compiled script, by its path in the source tree with .js (`src/app/main.js`). */
export function compiledScript(path: string): string {
  return join(buildRoot, path);
}

function findRepositoryRoot(start: string): string {
  for (let folder = start; ; folder = dirname(folder)) {
    if (existsSync(join(folder, 'config', 'default.yaml'))) return folder;
    if (dirname(folder) === folder) return process.cwd();
  }
}
