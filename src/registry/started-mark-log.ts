import { closeSync, fstatSync, ftruncateSync, openSync, readFileSync, renameSync, statfsSync, writeFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { EchoError } from '../errors/echo-error.js';

/** A started mark found in the file at start-up: written by an earlier process, whose result may never have been saved. */
export type RecoveredMark = { readonly key: string; readonly expiresAt: number };

/**
 * The write-ahead file of side-effect calls about to run, beside a store file on this machine: one line per
 * call, written synchronously (a `write(2)`, no thread pool hop, no SQL), so a SIGKILL right after it still finds
 * the mark. A mark is settled once the call's result is in the store; the file is emptied whenever every mark in
 * it is settled, so it stays small.
 */
export interface StartedMarkLog {
  /** Writes the mark before the call runs; throws an EchoError when it could not (disk full, unwritable file). */
  append(key: string, expiresAt: number): void;
  /** The call's result (or an earlier process's mark) is in the store now: the line is no longer needed. */
  settle(key: string): void;
  /** Whether a mark is written and not settled: the call began, and its result is not in the store. */
  isPending(key: string): boolean;
  /** Marks left by an earlier process (read when the file was opened), not yet settled. */
  recovered(): readonly RecoveredMark[];
  close(): void;
}

/** How the file is kept. */
export type StartedMarkLogOptions = {
  readonly file: string;
  /** Below this much free space on the file's disk a mark is refused, as the store would refuse the result; default 64 KiB. */
  readonly minFreeBytes?: number;
  /** Past this size the file is rewritten with only the pending marks, when it never empties by itself; default 4 MiB. */
  readonly rewriteAboveBytes?: number;
  /** Time source for expiry (tests). */
  readonly now?: () => number;
};

/** Files past this size are emptied as soon as no mark is pending (cheap: one truncate). */
const emptyAboveBytes = 64 * 1024;

/** Opens (creating) the mark file and reads what an earlier process left in it. */
export function openStartedMarkLog(options: StartedMarkLogOptions): StartedMarkLog {
  const minFreeBytes = options.minFreeBytes ?? 64 * 1024;
  const rewriteAboveBytes = options.rewriteAboveBytes ?? 4 * 1024 * 1024;
  const now = options.now ?? Date.now;
  const folder = dirname(options.file);
  const pending = new Map<string, number>();
  const earlier = new Set<string>();
  for (const mark of readMarks(options.file, now())) {
    pending.set(mark.key, mark.expiresAt);
    earlier.add(mark.key);
  }
  // The recovered marks stay in the file (it is opened for appending) until they are settled.
  let descriptor = openSync(options.file, 'a');
  let bytes = fstatSync(descriptor).size;
  // Once closed, the descriptor's number may belong to another file: nothing may write or close it again.
  let closed = false;

  function rewrite(): void {
    const next = `${options.file}.next`;
    writeFileSync(next, [...pending].map(([key, expiresAt]) => `${expiresAt} ${key}\n`).join(''));
    renameSync(next, options.file);
    closeSync(descriptor);
    descriptor = openSync(options.file, 'a');
    bytes = 0;
  }

  return {
    append(key, expiresAt) {
      if (closed) throw new EchoError('store-write-failed', 'The started mark could not be written: the mark file is closed (the agent is stopping).');
      // A write that fits in the file's last page succeeds on a full disk: check the room first, so a full disk
      // refuses the call as the store would (whose result could not be saved either).
      let free: number;
      try {
        const space = statfsSync(folder);
        free = space.bavail * space.bsize;
      } catch (error) {
        throw new EchoError('store-write-failed', `The started mark could not be written (${error instanceof Error ? error.message : String(error)}).`, { cause: error });
      }
      if (free < minFreeBytes) throw new EchoError('store-write-failed', `The started mark could not be written: the disk holding the store is full (${free} bytes free).`);
      const line = `${expiresAt} ${key}\n`;
      try {
        writeSync(descriptor, line);
      } catch (error) {
        throw new EchoError('store-write-failed', `The started mark could not be written (${error instanceof Error ? error.message : String(error)}).`, { cause: error });
      }
      bytes += line.length;
      pending.set(key, expiresAt);
    },
    settle(key) {
      if (!pending.delete(key)) return;
      earlier.delete(key);
      if (closed || bytes < emptyAboveBytes) return;
      try {
        // Nothing pending: every line is settled, the file can be empty. Appends go to the new end (O_APPEND).
        if (pending.size === 0) {
          ftruncateSync(descriptor);
          bytes = 0;
        } else if (bytes > rewriteAboveBytes) rewrite();
      } catch {
        // Left as it is: a longer file only costs a longer read at the next start.
      }
    },
    isPending: (key) => pending.has(key),
    recovered: () => [...earlier].map((key) => ({ key, expiresAt: pending.get(key) ?? 0 })),
    close() {
      if (closed) return;
      closed = true;
      try {
        if (pending.size === 0) ftruncateSync(descriptor);
      } catch {
        // Nothing to do: the next start reads the settled lines again and finds their results in the store.
      }
      closeSync(descriptor);
    },
  };
}

/** The unexpired marks in the file, the last of each key; a torn last line (a write cut short) is skipped. */
function readMarks(file: string, now: number): readonly RecoveredMark[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const marks = new Map<string, number>();
  for (const line of text.split('\n')) {
    const space = line.indexOf(' ');
    if (space <= 0) continue;
    const expiresAt = Number(line.slice(0, space));
    const key = line.slice(space + 1);
    if (Number.isFinite(expiresAt) && expiresAt > now && key.length > 0) marks.set(key, expiresAt);
  }
  return [...marks].map(([key, expiresAt]) => ({ key, expiresAt }));
}
