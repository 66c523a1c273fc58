/**
 * Reads a record until it is settled, the wait is over or the caller hung up, polling the store (so an answer taken by
 * another process, or before a restart, is seen the same way). Resolves to the last read.
 */
export async function waitUntilSettled<Value>(input: {
  readonly read: () => Promise<Value>;
  readonly isSettled: (value: Value) => boolean;
  readonly waitMs: number;
  readonly pollMs: number;
  readonly signal?: AbortSignal;
}): Promise<Value> {
  const deadline = Date.now() + input.waitMs;
  let value = await input.read();
  while (!input.isSettled(value) && Date.now() < deadline && input.signal?.aborted !== true) {
    await sleep(Math.min(input.pollMs, Math.max(0, deadline - Date.now())), input.signal);
    value = await input.read();
  }
  return value;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
