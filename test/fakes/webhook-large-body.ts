import { request } from 'node:http';

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
