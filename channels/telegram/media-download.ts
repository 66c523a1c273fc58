import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { MediaDestination, MediaDownloadResult } from '../../src/events/media-download-result.js';
import type { TelegramTransport } from './telegram-transport.js';

/** The largest file the Bot API lets a bot download (getFile refuses bigger ones). */
export const telegramDownloadLimitBytes = 20 * 1024 * 1024;

/**
 * Downloads files by id (getFile, then the file URL), streamed to disk chunk by chunk (never held whole in
 * memory), refusing anything over the cap before and while reading; a refused or failed file leaves nothing behind.
 */
export function createMediaDownloader(options: { readonly transport: TelegramTransport; readonly apiRoot: string; readonly token: string }) {
  return {
    async download(fileId: string, destination: MediaDestination): Promise<MediaDownloadResult> {
      const { maxBytes } = destination;
      const file = await options.transport.call<{ file_path?: string; file_size?: number }>('getFile', { file_id: fileId }, { policy: 'idempotent', signal: destination.signal });
      if (!file.ok) return { ok: false, error: file.error, ...(/too big/i.test(file.error) ? { tooLarge: true } : {}) };
      const { file_path: filePath, file_size: size } = file.value ?? {};
      if (!filePath) return { ok: false, error: 'Telegram gave no path for this file.' };
      if (size !== undefined && size > maxBytes) return { ok: false, error: `The file is ${size} bytes; the limit is ${maxBytes}.`, tooLarge: true };
      let response: Response;
      try {
        const signal = destination.signal ? AbortSignal.any([destination.signal, AbortSignal.timeout(120_000)]) : AbortSignal.timeout(120_000);
        response = await fetch(new URL(`./file/bot${options.token}/${filePath}`, withSlash(options.apiRoot)), { signal });
      } catch (error) {
        // The URL holds the token: never echo it.
        return { ok: false, error: `The file could not be downloaded (${error instanceof Error ? error.name : 'error'}).` };
      }
      if (!response.ok || !response.body) return { ok: false, error: `The file could not be downloaded (HTTP ${response.status}).` };
      let total = 0;
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          total += chunk.byteLength;
          done(total > maxBytes ? new OverLimit() : null, chunk);
        },
      });
      try {
        await pipeline(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), counter, createWriteStream(destination.path, { mode: 0o600 }));
      } catch (error) {
        await rm(destination.path, { force: true });
        if (error instanceof OverLimit) return { ok: false, error: `The file is over the limit of ${maxBytes} bytes.`, tooLarge: true };
        return { ok: false, error: `The file could not be downloaded (${error instanceof Error ? error.name : 'error'}).` };
      }
      return { ok: true, bytes: total };
    },
  };
}

class OverLimit extends Error {}

function withSlash(root: string): string {
  return root.endsWith('/') ? root : `${root}/`;
}
