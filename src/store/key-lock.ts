/**
 * Serialises async work per key within this process: the basis of `update`'s compare-and-set. The first work
 * on a key starts at once; each later one starts when the one before it settled. Two promises per call (the
 * work's and the tail's), no async wrapper: this runs for every update and add.
 */
export function createKeyLock(): <T>(key: string, work: () => Promise<T>) => Promise<T> {
  const tails = new Map<string, Promise<void>>();
  return <T>(key: string, work: () => Promise<T>): Promise<T> => {
    const previous = tails.get(key);
    let run: Promise<T>;
    if (previous === undefined) {
      try {
        run = work();
      } catch (error) {
        run = Promise.reject(error);
      }
    } else run = previous.then(work);
    // Only the last waiter clears the entry, so the map does not grow with every key ever seen.
    const release = () => {
      if (tails.get(key) === tail) tails.delete(key);
    };
    const tail: Promise<void> = run.then(release, release);
    tails.set(key, tail);
    return run;
  };
}
