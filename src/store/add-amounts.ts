/** Amounts to add to a record of numbers, by field (the `add` of a store namespace). */
export type Amounts = Readonly<Record<string, number>>;

/**
 * `current`'s numbers with each of `amounts` added to the field of the same name; a missing record or field
 * counts as 0, and fields only `current` has are kept. What `add` stores, where a backend cannot add in one statement. Pure.
 */
export function addAmounts(current: unknown, amounts: Amounts): Record<string, number> {
  const sum: Record<string, number> = typeof current === 'object' && current !== null ? { ...(current as Record<string, number>) } : {};
  for (const [field, amount] of Object.entries(amounts)) sum[field] = (typeof sum[field] === 'number' ? sum[field] : 0) + amount;
  return sum;
}
