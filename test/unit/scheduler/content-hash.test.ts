import { describe, expect, it } from 'vitest';
import { approvedContentOf, contentHashOf } from '../../../src/scheduler/content-hash.js';
import { hashToolCall } from '../../../src/registry/canonical-json.js';

describe('content binding of scheduled tasks', () => {
  it('hashes the job as the registry hashed the approved schedule_task call', () => {
    const withZone = approvedContentOf({ schedule: '0 9 * * *', prompt: 'p', timezone: 'Asia/Tokyo', defaultTimezone: 'UTC' });
    expect(withZone).toMatchObject({ ok: true, hash: hashToolCall('schedule_task', { schedule: '0 9 * * *', prompt: 'p', timezone: 'Asia/Tokyo' }) });
    const defaulted = approvedContentOf({ schedule: '0 9 * * *', prompt: 'p', timezone: 'UTC', defaultTimezone: 'UTC' });
    expect(defaulted).toMatchObject({ ok: true, hash: hashToolCall('schedule_task', { schedule: '0 9 * * *', prompt: 'p' }), content: { timezoneApproved: false } });
  });

  it('takes a hash from the caller when it matches one form of the content, and refuses one that does not', () => {
    const explicitDefault = hashToolCall('schedule_task', { schedule: 's', prompt: 'p', timezone: 'UTC' });
    expect(approvedContentOf({ schedule: 's', prompt: 'p', timezone: 'UTC', defaultTimezone: 'UTC', approvedContentHash: explicitDefault })).toMatchObject({ ok: true, hash: explicitDefault, content: { timezoneApproved: true } });
    expect(approvedContentOf({ schedule: 's', prompt: 'p', timezone: 'UTC', defaultTimezone: 'UTC', approvedContentHash: 'f'.repeat(64) })).toMatchObject({ ok: false });
  });

  it('changes with any part of the content', () => {
    const base = { schedule: '0 9 * * *', prompt: 'p', timezone: 'UTC', timezoneApproved: true };
    const hash = contentHashOf(base);
    expect(contentHashOf({ ...base, prompt: 'q' })).not.toBe(hash);
    expect(contentHashOf({ ...base, schedule: '0 10 * * *' })).not.toBe(hash);
    expect(contentHashOf({ ...base, timezone: 'Europe/Paris' })).not.toBe(hash);
  });
});
