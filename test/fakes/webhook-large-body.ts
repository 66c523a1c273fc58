import { request } from 'node:http';
import { connect } from 'node:net';

/** What sending a large body produced: the status the server answered, and whether the client had finished writing. */
export type LargeBodyAnswer = { readonly status: number; readonly body: string; readonly bytesWritten: number };

/**
 * POSTs a body of `sizeBytes` (declared with Content-Length, or chunked) in 64 KiB chunks. With
 * `pauseAfterBytes`, only that much is sent and the request stays open: an answer then proves the
 * server decided without reading the rest.
 */
export function postLargeBody(input: {
  readonly url: string;
  readonly sizeBytes: number;
  readonly chunked: boolean;
  readonly pauseAfterBytes?: number;
  readonly headers?: Readonly<Record<string, string>>;
}): Promise<LargeBodyAnswer> {
  const sendBytes = Math.min(input.sizeBytes, input.pauseAfterBytes ?? input.sizeBytes);
  return new Promise((resolve, reject) => {
    const chunk = Buffer.alloc(64 * 1024, 'a');
    let written = 0;
    let answered = false;
    const outgoing = request(input.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(input.chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(input.sizeBytes) }),
        ...input.headers,
      },
    });
    outgoing.on('response', (response) => {
      answered = true;
      const parts: Buffer[] = [];
      response.on('data', (part: Buffer) => parts.push(part));
      response.on('end', () => {
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(parts).toString('utf8'), bytesWritten: written });
        outgoing.destroy();
      });
    });
    outgoing.on('error', (error) => {
      // The server may close the socket while we are still writing; the answer (if any) already resolved us.
      if (!answered) reject(error);
    });
    const pump = () => {
      while (!answered && written < sendBytes) {
        const size = Math.min(chunk.length, sendBytes - written);
        written += size;
        if (!outgoing.write(size === chunk.length ? chunk : chunk.subarray(0, size))) {
          outgoing.once('drain', pump);
          return;
        }
      }
      if (!answered && written >= input.sizeBytes) outgoing.end();
    };
    pump();
  });
}

/**
 * POSTs `sizeBytes` over a raw socket and reads nothing until every byte is written, as Python's http.client and
 * many SDKs do: a server that answers early and then closes with the rest unread resets the connection, and such a
 * client never sees the answer. Resolves with the status line's code and the body, or rejects with the socket error.
 */
export function postWholeBodyThenRead(input: { readonly url: string; readonly sizeBytes: number; readonly headers?: Readonly<Record<string, string>> }): Promise<{ readonly status: number; readonly body: string }> {
  const url = new URL(input.url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: url.hostname, port: Number(url.port) });
    socket.once('error', reject);
    socket.once('connect', () => {
      const headers = { host: url.host, 'content-type': 'application/json', 'content-length': String(input.sizeBytes), ...input.headers };
      socket.write(`POST ${url.pathname}${url.search} HTTP/1.1\r\n${Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n`);
      const chunk = Buffer.alloc(64 * 1024, 'a');
      let written = 0;
      const pump = () => {
        while (written < input.sizeBytes) {
          const size = Math.min(chunk.length, input.sizeBytes - written);
          written += size;
          if (!socket.write(size === chunk.length ? chunk : chunk.subarray(0, size))) {
            socket.once('drain', pump);
            return;
          }
        }
        // Only now does it read, like a client that sends first and reads after.
        const parts: Buffer[] = [];
        socket.on('data', (part: Buffer) => {
          parts.push(part);
          const text = Buffer.concat(parts).toString('utf8');
          const [head = '', body = ''] = text.split('\r\n\r\n');
          const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? Number.NaN);
          if (Buffer.byteLength(body) >= length) {
            socket.destroy();
            resolve({ status: Number(head.split(' ')[1]), body });
          }
        });
      };
      pump();
    });
  });
}
