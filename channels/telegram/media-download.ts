import type { TelegramTransport } from './telegram-transport.js';

/** A downloaded file, or why not. */
export type MediaDownload =
  | { readonly ok: true; readonly bytes: Buffer; readonly filePath: string }
  | { readonly ok: false; readonly error: string; readonly tooLarge?: boolean };

/** Downloads files by id (getFile, then the file URL), refusing anything over the size cap before and while reading. */
export function createMediaDownloader(options: { readonly transport: TelegramTransport; readonly apiRoot: string; readonly token: string }) {
  return {
    async download(fileId: string, maxBytes: number): Promise<MediaDownload> {
      const file = await options.transport.call<{ file_path?: string; file_size?: number }>('getFile', { file_id: fileId }, { policy: 'idempotent' });
      if (!file.ok) return { ok: false, error: file.error };
      const { file_path: filePath, file_size: size } = file.value ?? {};
      if (!filePath) return { ok: false, error: 'Telegram gave no path for this file.' };
      if (size !== undefined && size > maxBytes) return { ok: false, error: `The file is ${size} bytes; the limit is ${maxBytes}.`, tooLarge: true };
      let response: Response;
      try {
        response = await fetch(new URL(`./file/bot${options.token}/${filePath}`, withSlash(options.apiRoot)), { signal: AbortSignal.timeout(60_000) });
      } catch (error) {
        // The URL holds the token: never echo it.
        return { ok: false, error: `The file could not be downloaded (${error instanceof Error ? error.name : 'error'}).` };
      }
      if (!response.ok || !response.body) return { ok: false, error: `The file could not be downloaded (HTTP ${response.status}).` };
      const chunks: Buffer[] = [];
      let total = 0;
      for await (const chunk of response.body) {
        total += chunk.byteLength;
        if (total > maxBytes) {
          await response.body.cancel().catch(() => undefined);
          return { ok: false, error: `The file is over the limit of ${maxBytes} bytes.`, tooLarge: true };
        }
        chunks.push(Buffer.from(chunk));
      }
      return { ok: true, bytes: Buffer.concat(chunks), filePath };
    },
  };
}

function withSlash(root: string): string {
  return root.endsWith('/') ? root : `${root}/`;
}
