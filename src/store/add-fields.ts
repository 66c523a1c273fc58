/** A record of numbers with `amounts` added field by field (a missing record or field counts as 0). Pure. */
export function addFields(current: Readonly<Record<string, number>> | undefined, amounts: Readonly<Record<string, number>>): Record<string, number> {
  const sum: Record<string, number> = { ...current };
  for (const [field, amount] of Object.entries(amounts)) sum[field] = (sum[field] ?? 0) + amount;
  return sum;
}
