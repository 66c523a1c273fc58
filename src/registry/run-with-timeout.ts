/** The result of running work under a deadline. */
export type TimedResult<T> = { readonly kind: 'done'; readonly value: T } | { readonly kind: 'timeout' } | { readonly kind: 'threw'; readonly error: unknown };

/**
 * Runs work with an AbortSignal that fires at the deadline. A tool that ignores its signal is still
 * cut off: the caller stops waiting at the deadline and its late result is dropped.
 */
export async function runWithTimeout<T>(work: (signal: AbortSignal) => Promise<T>, timeoutMs: number, parent?: AbortSignal): Promise<TimedResult<T>> {
  const controller = new AbortController();
  const onParentAbort = () => controller.abort(parent?.reason);
  // An 'abort' listener added after the fact never fires: a parent that is already aborted is passed on now.
  if (parent?.aborted) onParentAbort();
  else parent?.addEventListener('abort', onParentAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<TimedResult<T>>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new Error(`timed out after ${timeoutMs} ms`));
      resolve({ kind: 'timeout' });
    }, timeoutMs);
  });
  const running = Promise.resolve()
    .then(() => work(controller.signal))
    .then(
      (value): TimedResult<T> => ({ kind: 'done', value }),
      (error: unknown): TimedResult<T> => ({ kind: 'threw', error }),
    );
  try {
    return await Promise.race([running, deadline]);
  } finally {
    clearTimeout(timer);
    parent?.removeEventListener('abort', onParentAbort);
  }
}
