import type { IncomingMessage, ServerResponse } from 'node:http';

/** How much of a refused body is still read and dropped after the 413, and for how long: 128 MiB, 30 s. */
export const defaultRefusedBodyDrain = { maxBytes: 128 * 1024 * 1024, maxMs: 30_000 } as const;

/**
 * Reads the rest of a request whose body was refused and drops it, byte counts only, then closes the connection once
 * both the answer is out and the body has ended. Closing at once instead, with bytes unread, makes the kernel reset
 * the connection, and a client that writes its whole body before reading (Python's http.client, many SDKs) gets a
 * broken pipe instead of the 413. Past `maxBytes` or `maxMs` the connection is cut all the same.
 */
export function discardRefusedBody(request: IncomingMessage, response: ServerResponse, limits: { readonly maxBytes: number; readonly maxMs: number } = defaultRefusedBodyDrain): void {
  const socket = request.socket;
  let dropped = 0;
  const cut = () => socket.destroy();
  const timer = setTimeout(cut, limits.maxMs);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  const bodyEnded = request.readableEnded ? Promise.resolve() : new Promise<void>((resolve) => request.once('end', resolve));
  const answered = response.writableFinished ? Promise.resolve() : new Promise<void>((resolve) => response.once('finish', resolve));
  void Promise.all([bodyEnded, answered]).then(() => {
    clearTimeout(timer);
    // Everything sent has been read: a plain close (FIN), which the client reads after the answer.
    socket.end();
  });
  // A body being inflated is piped into zlib: take it back, so the data below is all that reads it.
  request.unpipe();
  request.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > limits.maxBytes) cut();
  });
  request.resume();
}
