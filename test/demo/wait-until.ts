/** Polls `check` until it returns a value; rejects after `timeoutMs` saying what it waited for, or at once when `signal` aborts (with its reason). */
export async function waitUntil<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  options: { readonly what: string; readonly timeoutMs: number; readonly signal?: AbortSignal; readonly intervalMs?: number; readonly explain?: () => string },
): Promise<T> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    options.signal?.throwIfAborted();
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) {
      const context = options.explain?.() ?? '';
      throw new Error(`no ${options.what} within ${Math.round(options.timeoutMs / 1000)} s${context === '' ? '' : `; ${context}`}`);
    }
    await sleep(options.intervalMs ?? 50, options.signal);
  }
}

/** Resolves after `milliseconds`, or rejects with the signal's reason when it aborts first. */
export function sleep(milliseconds: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, milliseconds);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
