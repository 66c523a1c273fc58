/** One write the store makes: a value already serialised for the backend, or a deletion. */
export type WriteOperation = { readonly kind: 'set'; readonly key: string; readonly serialized: string } | { readonly kind: 'delete'; readonly key: string };

/** Runs a batch of writes as few statements; resolves to, per operation, whether it changed a row. */
export type BatchWriter = (operations: readonly WriteOperation[]) => Promise<readonly boolean[]>;

/** Keeps only the last write per key (it decides the row); earlier writes to that key count as changed. */
export function collapseWrites(operations: readonly WriteOperation[]): { readonly last: readonly WriteOperation[]; readonly isLast: readonly boolean[] } {
  const lastIndex = new Map<string, number>();
  for (const [index, operation] of operations.entries()) lastIndex.set(operation.key, index);
  return { last: [...lastIndex.values()].sort((left, right) => left - right).map((index) => operations[index] as WriteOperation), isLast: operations.map((operation, index) => lastIndex.get(operation.key) === index) };
}
