import { mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createShortId } from '../events/create-id.js';

/** Downloaded files in one folder, each named by a generated id, purged after their lifetime. */
export interface AttachmentStore {
  /** A new, unused file path for a download, with its id (what the history keeps). */
  reserve(): Promise<{ readonly id: string; readonly path: string }>;
  /** The path of a stored file, or undefined for an id that is not ours (never a path outside the folder). */
  pathOf(id: string): string | undefined;
  /** The bytes of a stored file, or undefined when it is gone (purged). */
  read(id: string): Promise<Buffer | undefined>;
  /** Deletes files older than the lifetime; returns how many. */
  purge(): Promise<number>;
}

const idPattern = /^[0-9]{8}-[A-Za-z0-9]{6,32}$/;

/** Creates the store over `directory` (made on first use); files older than `keepMs` are deleted by `purge`. */
export function createAttachmentStore(options: { readonly directory: string; readonly keepMs: number; readonly now?: () => Date }): AttachmentStore {
  const now = options.now ?? (() => new Date());
  const pathOf = (id: string) => (idPattern.test(id) ? join(options.directory, id) : undefined);
  return {
    async reserve() {
      await mkdir(options.directory, { recursive: true, mode: 0o700 });
      const day = now().toISOString().slice(0, 10).replaceAll('-', '');
      const id = `${day}-${createShortId()}${createShortId()}`;
      return { id, path: join(options.directory, id) };
    },
    pathOf,
    async read(id) {
      const path = pathOf(id);
      if (!path) return undefined;
      return readFile(path).catch(() => undefined);
    },
    async purge() {
      const names = await readdir(options.directory).catch(() => [] as string[]);
      const cutoff = now().getTime() - options.keepMs;
      let purged = 0;
      for (const name of names) {
        const path = join(options.directory, name);
        const info = await stat(path).catch(() => undefined);
        if (info && info.mtimeMs < cutoff) {
          await rm(path, { force: true, recursive: true });
          purged += 1;
        }
      }
      return purged;
    },
  };
}
