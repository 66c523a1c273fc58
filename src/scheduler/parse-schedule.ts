import { loadNodeCron } from './load-node-cron.js';
import { isValidTimezone, type WallTime, wallTimeToInstant } from '../time/zoned-time.js';

// An ISO 8601 date-time (the same form schedule_task describes as one-time); anything else is read as cron.
const isoTime = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/** A schedule understood: a cron expression with its next run, or a single time. */
export type ParsedSchedule =
  | { readonly ok: true; readonly kind: 'recurring'; readonly expression: string; readonly nextRunAt: Date }
  | { readonly ok: true; readonly kind: 'once'; readonly at: Date }
  | { readonly ok: false; readonly error: string };

/** True when the schedule is an ISO 8601 time (a one-time job). */
export function isOneTimeSchedule(schedule: string): boolean {
  return isoTime.test(schedule.trim());
}

/**
 * Reads a schedule in a time zone: a 5- or 6-field cron expression (node-cron's syntax) or an ISO 8601
 * time. A time without an offset is wall-clock time in the zone. The next cron run is computed from the real clock.
 */
export function parseSchedule(schedule: string, timeZone: string): ParsedSchedule {
  const text = schedule.trim();
  if (!isValidTimezone(timeZone)) return { ok: false, error: `"${timeZone}" is not a known IANA time zone (e.g. Europe/Paris).` };
  const iso = isoTime.exec(text);
  if (iso) {
    const at = isoToInstant(iso, timeZone);
    return at === undefined ? { ok: false, error: `"${text}" is not a real date and time.` } : { ok: true, kind: 'once', at };
  }
  const fields = text.split(/\s+/).length;
  if (!text.startsWith('@') && fields !== 5 && fields !== 6) return { ok: false, error: `a cron expression has 5 or 6 fields (got ${fields}), or use an ISO 8601 time.` };
  const validation = loadNodeCron().validateDetailed(text);
  if (!validation.valid) return { ok: false, error: validation.errors.map((issue) => `${issue.field}: ${issue.message}`).join('; ') || 'not a valid cron expression.' };
  const nextRunAt = nextCronRun(text, timeZone);
  return nextRunAt === undefined ? { ok: false, error: 'the expression never matches a real time.' } : { ok: true, kind: 'recurring', expression: text, nextRunAt };
}

/** The next time a valid cron expression matches, in a zone. */
export function nextCronRun(expression: string, timeZone: string): Date | undefined {
  // node-cron computes matches only through a task; this one is never started and is destroyed at once.
  const probe = loadNodeCron().createTask(expression, () => undefined, { timezone: timeZone });
  try {
    return probe.getNextRuns(1)[0];
  } catch {
    return undefined;
  } finally {
    void Promise.resolve(probe.destroy()).catch(() => undefined);
  }
}

function isoToInstant(match: RegExpExecArray, timeZone: string): Date | undefined {
  const [, year, month, day, hour, minute, second, fraction, offset] = match;
  const wall: WallTime = {
    year: Number(year),
    month: Number(month),
    day: Number(day),
    hour: Number(hour),
    minute: Number(minute),
    second: Number(second ?? 0),
    millisecond: fraction === undefined ? 0 : Math.floor(Number(`0${fraction}`) * 1000),
  };
  const check = new Date(Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second));
  const isReal =
    check.getUTCFullYear() === wall.year && check.getUTCMonth() === wall.month - 1 && check.getUTCDate() === wall.day && check.getUTCHours() === wall.hour && check.getUTCMinutes() === wall.minute && check.getUTCSeconds() === wall.second;
  if (!isReal) return undefined;
  if (offset === undefined) return wallTimeToInstant(wall, timeZone);
  if (offset.toUpperCase() === 'Z') return new Date(Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second, wall.millisecond));
  const sign = offset.startsWith('-') ? -1 : 1;
  const digits = offset.slice(1).replace(':', '');
  const offsetMs = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4))) * 60_000;
  return new Date(Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second, wall.millisecond) - offsetMs);
}
