import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createBotApi } from '../../../../channels/telegram/bot-api.js';
import { createChatThrottle } from '../../../../channels/telegram/chat-throttle.js';
import { createMediaDownloader } from '../../../../channels/telegram/media-download.js';
import { createTelegramTransport } from '../../../../channels/telegram/telegram-transport.js';
import { createLogger } from '../../../../src/logging/create-logger.js';

const token = '42:AAmediaDownloadTestToken_xxxxxxxxx';
const files: Record<string, { size?: number; bytes: Buffer }> = {
  'photos/small.jpg': { size: 5, bytes: Buffer.from('hello') },
  'photos/big.jpg': { size: 5000, bytes: Buffer.alloc(5000) },
  'voice/unsized.ogg': { bytes: Buffer.alloc(3000, 1) },
};

describe('telegram media download', () => {
  let server: Server | undefined;
  afterEach(async () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  async function start(): Promise<string> {
    // The emulator has no getFile: a small Bot API stub serves getFile and the file URLs.
    const stub = createServer(async (request, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const url = request.url ?? '';
      if (url === `/bot${token}/getFile`) {
        const { file_id: fileId } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { file_id: string };
        const file = files[fileId];
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, result: { file_id: fileId, file_path: fileId, ...(file?.size === undefined ? {} : { file_size: file.size }) } }));
        return;
      }
      const file = files[url.replace(`/file/bot${token}/`, '')];
      if (!file) response.writeHead(404).end();
      else response.writeHead(200).end(file.bytes);
    });
    server = stub;
    await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
  }

  it('streams a file under the cap to disk and refuses files over it, by declared size or while reading, leaving nothing behind', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'echo-media-download-'));
    const to = (name: string) => ({ path: join(folder, name), maxBytes: 1000 });
    const apiRoot = await start();
    const logger = await createLogger({ level: 'silent', pretty: false });
    const transport = createTelegramTransport({ api: createBotApi({ token, apiRoot }), throttle: createChatThrottle(), logger, token });
    const downloader = createMediaDownloader({ transport, apiRoot, token });
    expect(await downloader.download('photos/small.jpg', to('small'))).toEqual({ ok: true, bytes: 5 });
    expect(readFileSync(join(folder, 'small'), 'utf8')).toBe('hello');
    expect(await downloader.download('photos/big.jpg', to('big'))).toMatchObject({ ok: false, tooLarge: true });
    expect(await downloader.download('voice/unsized.ogg', to('unsized'))).toMatchObject({ ok: false, tooLarge: true });
    expect([existsSync(join(folder, 'big')), existsSync(join(folder, 'unsized'))]).toEqual([false, false]);
    const missing = await downloader.download('nope', to('nope'));
    expect(missing.ok).toBe(false);
    expect(missing.ok ? '' : missing.error).not.toContain(token);
    rmSync(folder, { recursive: true, force: true });
  });
});
