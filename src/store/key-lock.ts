/** Serialises async work per key within this process: the basis of `update`'s compare-and-set. */
export function createKeyLock(): <T>(key: string, work: () => Promise<T>) => Promise<T> {
  const tails = new Map<string, Promise<unknown>>();
  return async <T>(key: string, work: () => Promise<T>): Promise<T> => {
    const previous = tails.get(key) ?? Promise.resolve();
    const run = previous.then(work, work);
    const tail = run.catch(() => undefined);
    tails.set(key, tail);
    try {
      return await run;
    } finally {
      // Only the last waiter clears the entry, so the map does not grow with every key ever seen.
      if (tails.get(key) === tail) tails.delete(key);
    }
  };
}
