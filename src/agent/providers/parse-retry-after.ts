/** Reads how long the server asked us to wait, in seconds, from `retry-after-ms` or `retry-after` (seconds or HTTP date). */
export function parseRetryAfter(
  headers: { get(name: string): string | null } | undefined,
  now: () => number = Date.now,
): number | undefined {
  if (headers === undefined) return undefined;
  const milliseconds = headers.get('retry-after-ms');
  if (milliseconds !== null && milliseconds.trim() !== '') {
    const value = Number(milliseconds);
    if (Number.isFinite(value) && value >= 0) return value / 1000;
  }
  const header = headers.get('retry-after');
  if (header === null || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds : undefined;
  const date = Date.parse(header);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, (date - now()) / 1000);
}
