/** The parts of an instant as a wall clock in an IANA time zone shows them. */
type WallParts = { readonly year: string; readonly month: string; readonly day: string; readonly hour: string; readonly minute: string; readonly second: string };

function wallParts(instant: Date, timezone: string): WallParts {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: timezone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(instant);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((candidate) => candidate.type === type)?.value ?? '00';
  return { year: part('year'), month: part('month'), day: part('day'), hour: part('hour'), minute: part('minute'), second: part('second') };
}

/** An ISO 8601 date-time without offset (`YYYY-MM-DDTHH:MM:SS`): wall-clock time in the zone, as a model would write it. */
export function formatWallTime(instant: Date, timezone: string): string {
  const { year, month, day, hour, minute, second } = wallParts(instant, timezone);
  return `${year}-${month}-${day}T${hour}:${minute}:${second}`;
}

/** This machine's IANA time zone, or UTC when it cannot be told. */
export function localTimezone(): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return typeof zone === 'string' && zone !== '' ? zone : 'UTC';
}
