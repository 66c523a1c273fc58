import type { UsageAttribution } from '../model/model-port.js';

/** What a counter counts for: a chat, a person, a scheduled job, everything, a model, or what started the calls. */
export type UsageDimension = 'chat' | 'user' | 'job' | 'global' | 'model' | 'origin';

/** A counter's coordinates: its period key (`day:2025-01-31`), dimension and id within it. */
export type CounterAddress = { readonly period: string; readonly dimension: UsageDimension; readonly id: string };

const dimensions: readonly string[] = ['chat', 'user', 'job', 'global', 'model', 'origin'];

/** The id every call counts under in the `global` dimension. */
export const globalId = 'all';

/** The store key of a counter: `<period>|<dimension>|<id>`. Pure. */
export function counterKey(address: CounterAddress): string {
  return `${address.period}|${address.dimension}|${address.id}`;
}

/** A counter's coordinates from its store key, or undefined for a key of another shape. Pure. */
export function parseCounterKey(key: string): CounterAddress | undefined {
  const [period, dimension, ...rest] = key.split('|');
  if (period === undefined || dimension === undefined || rest.length === 0 || !dimensions.includes(dimension)) return undefined;
  return { period, dimension: dimension as UsageDimension, id: rest.join('|') };
}

/** The ids a call counts under, per dimension: a scheduled turn counts for its job (and its creator, when known). Pure. */
export function idsOfCall(attribution: UsageAttribution, model: string): readonly (readonly [UsageDimension, string])[] {
  return [
    ['chat', `${attribution.channel}:${attribution.chatId}`],
    ...(attribution.userId === undefined ? [] : [['user', `${attribution.channel}:${attribution.userId}`] as const]),
    ...(attribution.jobId === undefined ? [] : [['job', attribution.jobId] as const]),
    ['global', globalId],
    ['model', model],
    ['origin', attribution.origin],
  ];
}

/**
 * Every counter key one call adds to: each dimension's counter of the day (months are sums of days), the keys of
 * `idsOfCall` in its order. Written out rather than mapped from it: it runs for every model call. Pure.
 */
export function counterKeysOfCall(attribution: UsageAttribution, model: string, day: string): readonly string[] {
  const keys = [`${day}|chat|${attribution.channel}:${attribution.chatId}`];
  if (attribution.userId !== undefined) keys.push(`${day}|user|${attribution.channel}:${attribution.userId}`);
  if (attribution.jobId !== undefined) keys.push(`${day}|job|${attribution.jobId}`);
  keys.push(`${day}|global|${globalId}`, `${day}|model|${model}`, `${day}|origin|${attribution.origin}`);
  return keys;
}
