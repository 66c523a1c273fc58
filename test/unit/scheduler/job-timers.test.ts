import { afterEach, describe, expect, it, vi } from 'vitest';
import { createJobTimers } from '../../../src/scheduler/job-timers.js';
import { createLogger } from '../../../src/logging/create-logger.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('job timers', () => {
  it('fires a one-time job months ahead, past the 24.8-day limit of one setTimeout', async () => {
    vi.useFakeTimers({ now: new Date('2030-01-01T00:00:00Z') });
    const fired: string[] = [];
    const timers = createJobTimers({ onFire: (jobId) => fired.push(jobId), logger: await createLogger({ level: 'silent', pretty: false }), now: () => new Date() });
    timers.armOnce('far', new Date('2030-03-01T00:00:00Z'));
    vi.advanceTimersByTime(30 * 24 * 60 * 60 * 1000);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(29 * 24 * 60 * 60 * 1000);
    expect(fired).toEqual(['far']);
  });

  it('does not fire a disarmed job', async () => {
    vi.useFakeTimers({ now: new Date('2030-01-01T00:00:00Z') });
    const fired: string[] = [];
    const timers = createJobTimers({ onFire: (jobId) => fired.push(jobId), logger: await createLogger({ level: 'silent', pretty: false }), now: () => new Date() });
    timers.armOnce('soon', new Date('2030-01-01T00:01:00Z'));
    timers.disarm('soon');
    vi.advanceTimersByTime(120_000);
    expect(fired).toEqual([]);
  });
});
