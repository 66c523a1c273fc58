import { wallTimeAt } from '../../src/time/zoned-time.js';

const twoDigits = (value: number) => String(value).padStart(2, '0');

/** An ISO 8601 date-time without offset (`YYYY-MM-DDTHH:MM:SS`): wall-clock time in the zone, as a model would write it. */
export function formatWallTime(instant: Date, timezone: string): string {
  const wall = wallTimeAt(instant.getTime(), timezone);
  return `${wall.year}-${twoDigits(wall.month)}-${twoDigits(wall.day)}T${twoDigits(wall.hour)}:${twoDigits(wall.minute)}:${twoDigits(wall.second)}`;
}

/** This machine's IANA time zone, or UTC when it cannot be told. */
export function localTimezone(): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return typeof zone === 'string' && zone !== '' ? zone : 'UTC';
}
