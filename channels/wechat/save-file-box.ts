import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FileBoxInterface } from 'file-box';
import type { MediaDestination, MediaDownloadResult } from '../../src/events/media-download-result.js';

/** Streams a wechaty FileBox to disk chunk by chunk, refusing it past `maxBytes` (by its declared size or while reading). */
export async function saveFileBox(fileBox: FileBoxInterface, destination: MediaDestination): Promise<MediaDownloadResult> {
  const { maxBytes } = destination;
  if (fileBox.size > maxBytes) return { ok: false, error: `The file is ${fileBox.size} bytes; the limit is ${maxBytes}.`, tooLarge: true };
  let total = 0;
  let isOver = false;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      total += chunk.byteLength;
      isOver = total > maxBytes;
      done(isOver ? new Error('over the limit') : null, chunk);
    },
  });
  try {
    await pipeline(await fileBox.toStream(), counter, createWriteStream(destination.path, { mode: 0o600 }), { signal: destination.signal });
  } catch (error) {
    await rm(destination.path, { force: true });
    if (isOver) return { ok: false, error: `The file is over the limit of ${maxBytes} bytes.`, tooLarge: true };
    return { ok: false, error: `The file could not be downloaded (${error instanceof Error ? error.message.slice(0, 120) : 'error'}).` };
  }
  return { ok: true, bytes: total, ...(fileBox.name ? { fileName: fileBox.name } : {}) };
}
