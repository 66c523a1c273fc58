import { describe, expect, it } from 'vitest';
import type { StoredJob } from '../../../src/scheduler/job-store.js';
import { planStartup } from '../../../src/scheduler/plan-startup.js';

const now = new Date('2030-01-01T12:00:00Z');
const base: StoredJob = { id: 'j', schedule: '0 9 * * *', timezone: 'UTC', prompt: 'p', target: { channel: 'cli', chatId: 'local' }, source: 'config', createdAt: '2029-01-01T00:00:00Z', catchUp: 'skip' };

describe('start-up plan of a stored job', () => {
  it('arms a one-time job still ahead, and runs once (or skips) one whose time passed while down', () => {
    expect(planStartup({ ...base, schedule: '2030-01-02T00:00:00Z', catchUp: 'run-once' }, now)).toMatchObject({ arm: { kind: 'once', at: new Date('2030-01-02T00:00:00Z') }, fireNow: false });
    const overdue = { ...base, schedule: '2029-12-31T00:00:00Z' };
    const runOnce = planStartup({ ...overdue, catchUp: 'run-once' }, now);
    expect([runOnce.arm, runOnce.fireNow, runOnce.missedSkipped]).toEqual([undefined, true, false]);
    const skipped = planStartup({ ...overdue, catchUp: 'skip' }, now);
    expect([skipped.arm, skipped.fireNow, skipped.missedSkipped]).toEqual([undefined, false, true]);
    const spent = planStartup({ ...overdue, catchUp: 'run-once', done: true }, now);
    expect([spent.arm, spent.fireNow, spent.missedSkipped]).toEqual([undefined, false, false]);
  });

  it('arms a recurring job; a missed run skips to the next time unless the job catches up', () => {
    expect(planStartup(base, now)).toMatchObject({ arm: { kind: 'recurring', expression: '0 9 * * *' }, fireNow: false, missedSkipped: false });
    const missed = { ...base, nextRunAt: '2030-01-01T09:00:00.000Z' };
    expect(planStartup(missed, now)).toMatchObject({ arm: { kind: 'recurring' }, fireNow: false, missedSkipped: true });
    expect(planStartup({ ...missed, catchUp: 'run-once' }, now)).toMatchObject({ arm: { kind: 'recurring' }, fireNow: true });
    expect(planStartup({ ...base, nextRunAt: '2030-01-02T09:00:00.000Z' }, now)).toMatchObject({ fireNow: false, missedSkipped: false });
    // It did run at that time; only the record of the next time was not written before the process stopped.
    const ranThen = { ...missed, catchUp: 'run-once' as const, lastRun: { startedAt: '2030-01-01T09:00:00.004Z', finishedAt: '2030-01-01T09:00:03Z', status: 'succeeded' as const } };
    expect(planStartup(ranThen, now)).toMatchObject({ fireNow: false, missedSkipped: false });
  });

  it('flags a run the process died in, and an invalid schedule', () => {
    expect(planStartup({ ...base, lastRun: { startedAt: '2030-01-01T11:59:00Z', status: 'running' } }, now).interrupted).toBe(true);
    const invalid = planStartup({ ...base, schedule: 'nonsense' }, now);
    expect(invalid.arm).toBeUndefined();
    expect(invalid.invalid).toContain('5 or 6 fields');
  });
});
