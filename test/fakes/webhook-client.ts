import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { App } from '../../src/app/create-app.js';
import type { WebhookChannel } from '../../channels/webhook/index.js';

/** An answer from the gateway: status, parsed JSON body (or text) and headers. */
export type GatewayAnswer = { readonly status: number; readonly body: unknown; readonly text: string; readonly headers: Headers };

/** The base URL of an app's running gateway, and its webhook channel when that is on. */
export function gatewayOf(app: App): { readonly channel: WebhookChannel; readonly baseUrl: string } {
  const address = app.gateway?.address();
  if (!address) throw new Error('the gateway is not listening');
  return {
    baseUrl: `http://${address.host}:${address.port}`,
    get channel() {
      const channel = app.channels.get('webhook') as WebhookChannel | undefined;
      if (!channel) throw new Error('the webhook channel is off');
      return channel;
    },
  };
}

/** The signature of a callback the agent sends, computed independently of the server's code: sha256=<hex HMAC(secret, "ts.body")>. */
export function signForTest(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** The signature a client computes for a request: sha256=<hex HMAC(secret, "ts.idempotencyKey.body")>, the key empty when there is none. */
export function signRequestForTest(secret: string, timestamp: string, body: string, idempotencyKey = ''): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${idempotencyKey}.${body}`).digest('hex')}`;
}

/** POSTs a body to the gateway, signed unless told otherwise. */
export async function postSigned(input: {
  readonly baseUrl: string;
  readonly secret: string;
  readonly body: unknown;
  readonly path?: string;
  readonly query?: string;
  /** Unix seconds; default now. */
  readonly timestamp?: number;
  readonly headers?: Readonly<Record<string, string>>;
  /** Replace the signature (e.g. a wrong one); `null` leaves both signature headers out. */
  readonly signature?: string | null;
  readonly contentType?: string;
}): Promise<GatewayAnswer> {
  const text = typeof input.body === 'string' ? input.body : JSON.stringify(input.body);
  const timestamp = String(input.timestamp ?? Math.floor(Date.now() / 1000));
  const headers: Record<string, string> = { 'content-type': input.contentType ?? 'application/json', ...input.headers };
  if (input.signature !== null) {
    headers['x-echo-timestamp'] = timestamp;
    const idempotencyKey = Object.entries(headers).find(([name]) => name.toLowerCase() === 'idempotency-key')?.[1];
    headers['x-echo-signature'] = input.signature ?? signRequestForTest(input.secret, timestamp, text, idempotencyKey);
  }
  const response = await fetch(`${input.baseUrl}${input.path ?? '/v1/messages'}${input.query ?? ''}`, { method: 'POST', headers, body: text });
  return read(response);
}

/** GETs a path from the gateway. */
export async function getPath(baseUrl: string, path: string): Promise<GatewayAnswer> {
  return read(await fetch(`${baseUrl}${path}`));
}

async function read(response: Response): Promise<GatewayAnswer> {
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON (metrics text): keep the text.
  }
  return { status: response.status, body, text, headers: response.headers };
}

/** A request a callback receiver got. */
export type ReceivedCallback = { readonly headers: IncomingHttpHeaders; readonly body: string };

/** A local HTTP server that records callback POSTs; answers with the statuses given in turn, then 200. */
export async function createCallbackReceiver(options: { readonly statuses?: readonly number[] } = {}): Promise<{ readonly url: string; readonly received: readonly ReceivedCallback[]; close(): Promise<void> }> {
  const received: ReceivedCallback[] = [];
  const statuses = [...(options.statuses ?? [])];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.statusCode = statuses.shift() ?? 200;
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/callback`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A promise the test opens when it chooses: a scripted model step awaits it to stay "slow" exactly as long as needed. */
export function createGate(): { readonly opened: Promise<void>; open(): void } {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open: () => open() };
}
