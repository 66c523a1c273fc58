import { describe, expect, it } from 'vitest';
import { isOneTimeSchedule, parseSchedule } from '../../../src/scheduler/parse-schedule.js';
import { wallTimeToInstant } from '../../../src/time/zoned-time.js';

describe('schedules', () => {
  it('reads 5- and 6-field cron expressions with their next run in the zone', () => {
    const daily = parseSchedule('0 9 * * *', 'Europe/Paris');
    expect(daily).toMatchObject({ ok: true, kind: 'recurring', expression: '0 9 * * *' });
    if (!daily.ok || daily.kind !== 'recurring') return;
    expect(new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Paris', hour: '2-digit', minute: '2-digit' }).format(daily.nextRunAt)).toBe('09:00');
    expect(daily.nextRunAt.getTime()).toBeGreaterThan(Date.now());
    expect(parseSchedule('*/5 * * * * *', 'UTC')).toMatchObject({ ok: true, kind: 'recurring' });
  });

  it('refuses wrong field counts, bad fields and unknown zones with a reason', () => {
    expect(parseSchedule('* * * *', 'UTC')).toMatchObject({ ok: false, error: expect.stringContaining('5 or 6 fields') });
    expect(parseSchedule('61 * * * *', 'UTC')).toMatchObject({ ok: false, error: expect.stringContaining('minute') });
    expect(parseSchedule('every morning', 'UTC')).toMatchObject({ ok: false });
    expect(parseSchedule('0 9 * * *', 'Mars/Olympus')).toMatchObject({ ok: false, error: expect.stringContaining('time zone') });
  });

  it('reads ISO 8601 times: with Z, with an offset, or as wall-clock time in the zone', () => {
    expect(parseSchedule('2030-01-02T08:30:00Z', 'Asia/Tokyo')).toEqual({ ok: true, kind: 'once', at: new Date('2030-01-02T08:30:00.000Z') });
    expect(parseSchedule('2030-01-02T08:30:00+02:00', 'UTC')).toEqual({ ok: true, kind: 'once', at: new Date('2030-01-02T06:30:00.000Z') });
    expect(parseSchedule('2030-01-02 08:30', 'Europe/Paris')).toEqual({ ok: true, kind: 'once', at: new Date('2030-01-02T07:30:00.000Z') });
    expect(parseSchedule('2030-07-02T08:30:00', 'Europe/Paris')).toEqual({ ok: true, kind: 'once', at: new Date('2030-07-02T06:30:00.000Z') });
    expect(parseSchedule('2030-02-30T08:30:00Z', 'UTC')).toMatchObject({ ok: false, error: expect.stringContaining('not a real date') });
    expect(isOneTimeSchedule('2030-01-02T08:30:00.123Z')).toBe(true);
    expect(isOneTimeSchedule('0 9 * * *')).toBe(false);
  });

  it('converts wall-clock times across daylight saving changes', () => {
    // 2030-03-31 02:30 does not exist in Paris (clocks jump 02:00 → 03:00); 01:30 is still winter time.
    expect(wallTimeToInstant({ year: 2030, month: 3, day: 31, hour: 1, minute: 30, second: 0, millisecond: 0 }, 'Europe/Paris').toISOString()).toBe('2030-03-31T00:30:00.000Z');
    expect(wallTimeToInstant({ year: 2030, month: 3, day: 31, hour: 4, minute: 0, second: 0, millisecond: 0 }, 'Europe/Paris').toISOString()).toBe('2030-03-31T02:00:00.000Z');
    expect(wallTimeToInstant({ year: 2030, month: 6, day: 1, hour: 12, minute: 0, second: 0, millisecond: 0 }, 'America/New_York').toISOString()).toBe('2030-06-01T16:00:00.000Z');
  });
});
