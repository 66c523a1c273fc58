import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createDeferredRequestHandler, type RequestListener } from '../../../src/gateway/deferred-request-handler.js';

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

async function serve(handle: RequestListener): Promise<string> {
  server = createServer(handle);
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('deferred request handler', () => {
  it('holds a request that comes before the real handler is built, body included, and answers it once built', async () => {
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let builds = 0;
    const handler = createDeferredRequestHandler({
      build: async () => {
        builds += 1;
        await released;
        return (request, response) => {
          let body = '';
          request.on('data', (chunk: Buffer) => {
            body += chunk.toString('utf8');
          });
          request.on('end', () => response.end(`got ${body}`));
        };
      },
      onFailure: () => undefined,
    });
    const url = await serve(handler.handle);
    const answer = fetch(url, { method: 'POST', body: 'hello' }).then((response) => response.text());
    const second = fetch(url, { method: 'POST', body: 'again' }).then((response) => response.text());
    setTimeout(release, 50);
    expect(await answer).toBe('got hello');
    expect(await second).toBe('got again');
    await handler.load();
    expect(builds).toBe(1);
  });

  it('answers 500 in JSON and reports the failure when the handler cannot be built', async () => {
    const failures: unknown[] = [];
    const handler = createDeferredRequestHandler({
      build: () => Promise.reject(new Error('module missing')),
      onFailure: (error) => failures.push(error),
    });
    const url = await serve(handler.handle);
    const response = await fetch(url);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: { code: 'internal', message: 'The server failed to handle the request.' } });
    expect(failures).toHaveLength(1);
  });
});
