/** One write the store makes: a value already serialised for the backend, or a deletion. */
export type WriteOperation = { readonly kind: 'set'; readonly key: string; readonly serialized: string } | { readonly kind: 'delete'; readonly key: string };

/** Runs a batch of writes as few statements; resolves to, per operation, whether it changed a row. */
export type BatchWriter = (operations: readonly WriteOperation[]) => Promise<readonly boolean[]>;

type Waiting = { readonly operation: WriteOperation; readonly resolve: (changed: boolean) => void; readonly reject: (error: unknown) => void };

/** The most writes one batch carries. */
const maxBatch = 500;

/**
 * Group commit: a write made while the store is idle goes at once; writes made while a batch is in
 * flight wait for it and then go together, as one statement per kind. Under load that turns many
 * round trips into a few, and it never delays a write when there is no load.
 */
export function createWriteBatcher(write: BatchWriter): (operation: WriteOperation) => Promise<boolean> {
  let queue: Waiting[] = [];
  let running = false;

  async function drain(): Promise<void> {
    running = true;
    while (queue.length > 0) {
      const batch = queue.slice(0, maxBatch);
      queue = queue.slice(batch.length);
      try {
        const changed = await write(batch.map((waiting) => waiting.operation));
        for (const [index, waiting] of batch.entries()) waiting.resolve(changed[index] ?? false);
      } catch (error) {
        // One failed statement fails every write it carried: none of them may count as saved.
        for (const waiting of batch) waiting.reject(error);
      }
    }
    running = false;
  }

  return (operation) =>
    new Promise<boolean>((resolve, reject) => {
      queue.push({ operation, resolve, reject });
      if (!running) void drain();
    });
}

/** Keeps only the last write per key (it decides the row); earlier writes to that key count as changed. */
export function collapseWrites(operations: readonly WriteOperation[]): { readonly last: readonly WriteOperation[]; readonly isLast: readonly boolean[] } {
  const lastIndex = new Map<string, number>();
  for (const [index, operation] of operations.entries()) lastIndex.set(operation.key, index);
  return { last: [...lastIndex.values()].sort((left, right) => left - right).map((index) => operations[index] as WriteOperation), isLast: operations.map((operation, index) => lastIndex.get(operation.key) === index) };
}
