import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, rmdirSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A tmpfs of a few megabytes, mounted on a temporary folder (needs root, or CAP_SYS_ADMIN). */
export type SmallDisk = {
  readonly path: string;
  /** Writes a filler file until the disk refuses (ENOSPC); resolves to how many bytes fitted. */
  fill(): number;
  /** Removes the filler. */
  free(): void;
  /** Unmounts and removes the folder. */
  remove(): void;
};

/** Why a tmpfs cannot be mounted here, or undefined when it can (tried once, on a throwaway mount). */
export function smallDiskUnavailable(): string | undefined {
  const probe = mkdtempSync(join(tmpdir(), 'echo-mount-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe], { stdio: 'pipe' });
    execFileSync('umount', [probe], { stdio: 'pipe' });
    return undefined;
  } catch (error) {
    return `mounting a tmpfs is not permitted here (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`;
  } finally {
    rmdirSync(probe);
  }
}

/** Mounts a tmpfs of `sizeMb` megabytes. */
export function mountSmallDisk(sizeMb: number): SmallDisk {
  const path = mkdtempSync(join(tmpdir(), 'echo-small-disk-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m`, 'tmpfs', path], { stdio: 'pipe' });
  const filler = join(path, 'filler.bin');
  const chunk = Buffer.alloc(64 * 1024, 1);
  return {
    path,
    fill() {
      const descriptor = openSync(filler, 'a');
      let written = 0;
      try {
        // Bounded: a tmpfs of sizeMb cannot take more than this many chunks.
        for (let index = 0; index < (sizeMb * 1024 * 1024) / chunk.length + 1; index += 1) {
          written += writeSync(descriptor, chunk);
        }
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      } finally {
        closeSync(descriptor);
      }
      // Whatever fits in a smaller write (the last partial page) goes too.
      const small = Buffer.alloc(512, 1);
      const again = openSync(filler, 'a');
      try {
        for (let index = 0; index < 256; index += 1) written += writeSync(again, small);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      } finally {
        closeSync(again);
      }
      return written;
    },
    free() {
      rmSync(filler, { force: true });
    },
    remove() {
      try {
        execFileSync('umount', [path], { stdio: 'pipe' });
      } finally {
        rmSync(path, { recursive: true, force: true });
      }
    },
  };
}
