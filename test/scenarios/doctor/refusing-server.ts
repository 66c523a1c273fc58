import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A server that refuses every request with 401, in both the OpenAI and the Telegram Bot API error shapes. */
export type RefusingServer = {
  readonly origin: string;
  /** Path and headers of every request received. */
  readonly requests: readonly { readonly path: string; readonly headers: IncomingHttpHeaders }[];
  close(): Promise<void>;
};

/** Starts the refusing server on 127.0.0.1 with a random port. */
export async function startRefusingServer(): Promise<RefusingServer> {
  const requests: { path: string; headers: IncomingHttpHeaders }[] = [];
  const server = createServer((request, response) => {
    requests.push({ path: request.url ?? '/', headers: request.headers });
    response.writeHead(401, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ ok: false, error_code: 401, description: 'Unauthorized', error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
