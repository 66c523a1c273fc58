import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { get as httpGet, type IncomingMessage } from 'node:http';
import { get as httpsGet } from 'node:https';
import { Transform } from 'node:stream';
import { collectYoungGarbage } from '../../src/media/collect-young-garbage.js';
import { pipeline } from 'node:stream/promises';
import type { MediaDestination, MediaDownloadResult } from '../../src/events/media-download-result.js';
import type { TelegramTransport } from './telegram-transport.js';

export { telegramDownloadLimitBytes } from './telegram-limits.js';

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
      const url = new URL(`./file/bot${options.token}/${filePath}`, withSlash(options.apiRoot));
      const signal = destination.signal ? AbortSignal.any([destination.signal, AbortSignal.timeout(120_000)]) : AbortSignal.timeout(120_000);
      // node:http, not fetch: fetch reads ahead of a slow consumer and holds much of the file in memory.
      const response = await new Promise<IncomingMessage | Error>((resolve) => {
        const request = (url.protocol === 'https:' ? httpsGet : httpGet)(url, { signal }, resolve);
        request.on('error', resolve);
      });
      // The URL holds the token: never echo it.
      if (response instanceof Error) return { ok: false, error: `The file could not be downloaded (${response.name}).` };
      if (response.statusCode !== 200) {
        response.resume();
        return { ok: false, error: `The file could not be downloaded (HTTP ${response.statusCode}).` };
      }
      let total = 0;
      let sinceCollected = 0;
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          total += chunk.byteLength;
          sinceCollected += chunk.byteLength;
          // Every chunk the socket read is a buffer of its own, garbage once written: V8 collects them only after
          // tens of megabytes, so a big file would hold that much. A cheap young-generation pass every few MB bounds it.
          if (sinceCollected >= collectEveryBytes) {
            sinceCollected = 0;
            collectYoungGarbage();
          }
          done(total > maxBytes ? new OverLimit() : null, chunk);
        },
      });
      const sink = createWriteStream(destination.path, { mode: 0o600 });
      try {
        await pipeline(response, counter, sink, { signal });
      } catch (error) {
        // The file may still be opening when the pipeline fails: removed before the open completes, it would reappear.
        if (!sink.closed) await once(sink, 'close').catch(() => undefined);
        await rm(destination.path, { force: true });
        if (error instanceof OverLimit) return { ok: false, error: `The file is over the limit of ${maxBytes} bytes.`, tooLarge: true };
        return { ok: false, error: `The file could not be downloaded (${error instanceof Error ? error.name : 'error'}).` };
      }
      return { ok: true, bytes: total };
    },
  };
}

const collectEveryBytes = 1024 * 1024;

class OverLimit extends Error {}

function withSlash(root: string): string {
  return root.endsWith('/') ? root : `${root}/`;
}
