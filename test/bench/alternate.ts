/** One side of a comparison run alternately: a tree's agent, a floor. */
export type Contestant<T> = {
  readonly label: string;
  /** One measurement; `run` counts from 0. */
  measure(run: number): Promise<T>;
};

/**
 * Measures every contestant once per run, the order rotating each run (A B, B A; A B C, B C A, C A B), so
 * none always meets a warmer or a busier machine. A contestant that fails is left out of the later runs;
 * its result is that failure. One result per contestant, in order.
 */
export async function alternate<T>(contestants: readonly Contestant<T>[], runs: number): Promise<PromiseSettledResult<T[]>[]> {
  const results: T[][] = contestants.map(() => []);
  const failures: (unknown | undefined)[] = contestants.map(() => undefined);
  for (let run = 0; run < runs; run += 1) {
    const shift = run % Math.max(1, contestants.length);
    const order = [...contestants.keys()].slice(shift).concat([...contestants.keys()].slice(0, shift));
    for (const index of order) {
      if (failures[index] !== undefined) continue;
      try {
        results[index]?.push(await (contestants[index] as Contestant<T>).measure(run));
      } catch (error) {
        failures[index] = error ?? new Error('failed');
      }
    }
  }
  return contestants.map((_contestant, index) =>
    failures[index] === undefined ? { status: 'fulfilled', value: results[index] ?? [] } : { status: 'rejected', reason: failures[index] },
  );
}
