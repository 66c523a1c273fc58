import { describe, expect, it } from 'vitest';
import { createPeriodClock, periodKeysAt } from '../../../src/budgets/usage-period.js';

describe('budget periods in a time zone', () => {
  it('names the day and month of the zone and when each ends, across a daylight-saving change and a year end', () => {
    // Berlin leaves summer time on 2026-10-25: that day has 25 hours.
    const autumn = periodKeysAt(new Date('2026-10-25T12:00:00Z'), 'Europe/Berlin');
    expect(autumn).toMatchObject({ day: 'day:2026-10-25', month: 'month:2026-10' });
    expect(autumn.dayStartsAt.toISOString()).toBe('2026-10-24T22:00:00.000Z');
    expect(autumn.dayEndsAt.toISOString()).toBe('2026-10-25T23:00:00.000Z');
    expect(autumn.monthEndsAt.toISOString()).toBe('2026-10-31T23:00:00.000Z');
    const newYear = periodKeysAt(new Date('2026-12-31T16:30:00Z'), 'Asia/Shanghai');
    expect(newYear).toMatchObject({ day: 'day:2027-01-01', month: 'month:2027-01' });
    expect(newYear.monthEndsAt.toISOString()).toBe('2027-01-31T16:00:00.000Z');
  });

  it('follows an injected clock forward and back', () => {
    let now = new Date('2026-03-10T15:59:59Z');
    const periods = createPeriodClock({ timezone: 'Asia/Shanghai', now: () => now });
    expect(periods().day).toBe('day:2026-03-10');
    now = new Date('2026-03-10T16:00:00Z');
    expect(periods().day).toBe('day:2026-03-11');
    now = new Date('2026-03-09T01:00:00Z');
    expect(periods().day).toBe('day:2026-03-09');
  });
});
