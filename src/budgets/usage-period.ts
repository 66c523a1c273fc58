import { wallTimeAt, wallTimeToInstant } from '../time/zoned-time.js';

/** The two kinds of budget period: a calendar day or month in the configured time zone. */
export type PeriodKind = 'day' | 'month';

/** The keys of the day and month an instant falls in (`day:2025-01-31`, `month:2025-01`), and when each begins and ends. */
export type PeriodKeys = { readonly day: string; readonly month: string; readonly dayStartsAt: Date; readonly dayEndsAt: Date; readonly monthEndsAt: Date };

const midnight = { hour: 0, minute: 0, second: 0, millisecond: 0 };
const twoDigits = (value: number) => String(value).padStart(2, '0');

/** The day and month an instant falls in, in the zone, with the instants they end (the next midnight, the next first of the month). Pure. */
export function periodKeysAt(instant: Date, timezone: string): PeriodKeys {
  const { year, month, day } = wallTimeAt(instant.getTime(), timezone);
  // Date.UTC rolls day 32 and month 13 over, so the ends need no calendar arithmetic of their own.
  return {
    day: `day:${year}-${twoDigits(month)}-${twoDigits(day)}`,
    month: `month:${year}-${twoDigits(month)}`,
    dayStartsAt: wallTimeToInstant({ year, month, day, ...midnight }, timezone),
    dayEndsAt: wallTimeToInstant({ year, month, day: day + 1, ...midnight }, timezone),
    monthEndsAt: wallTimeToInstant({ year, month: month + 1, day: 1, ...midnight }, timezone),
  };
}

/**
 * Period keys for a clock, computed again only when the day has ended: one comparison per model call
 * instead of a date format.
 */
export function createPeriodClock(options: { readonly timezone: string; readonly now: () => Date }): () => PeriodKeys {
  let current: PeriodKeys | undefined;
  return () => {
    const instant = options.now();
    // Outside the cached day either way: a test clock may also go back.
    if (current === undefined || instant >= current.dayEndsAt || instant < current.dayStartsAt) current = periodKeysAt(instant, options.timezone);
    return current;
  };
}
