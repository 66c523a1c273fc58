import { describe, expect, it } from 'vitest';
import { filterTurns, groupTurns, type RecordedEntry } from '../../../src/console/group-turns.js';

const at = (minute: number) => `2026-12-02T10:${String(minute).padStart(2, '0')}:00.000Z`;
const entries: RecordedEntry[] = [
  { kind: 'approval-requested', traceId: 't1', approvalId: 'a1', channel: 'chat', userId: '1001', sessionKey: 'chat:1001', tool: 'exec', outcome: 'pending', at: at(1) },
  { kind: 'tool-call', traceId: 't2', channel: 'chat', userId: 'schedule:daily', sessionKey: 'cron:daily', tool: 'web_fetch', outcome: 'network', error: 'no answer', at: at(2) },
  { kind: 'approval-decided', traceId: 't1', approvalId: 'a1', channel: 'chat', userId: '1001', tool: 'exec', outcome: 'approved:once', decidedBy: '@boss', via: 'console', at: at(3) },
  { kind: 'tool-call', traceId: 't1', channel: 'chat', userId: '1001', sessionKey: 'chat:1001', tool: 'exec', outcome: 'ok', durationMs: 12, at: at(4) },
  { kind: 'approval-requested', approvalId: 'a2', channel: 'chat', userId: '2002', tool: 'write_file', outcome: 'pending', at: at(5) },
];

describe('the activity view’s turns from the audit log', () => {
  it('groups a turn’s approval and tool call by trace, newest first, and tells origin and outcome apart', () => {
    const turns = groupTurns(entries);
    expect(turns.map((turn) => [turn.id, turn.origin, turn.outcome, turn.entries.length])).toEqual([
      ['approval-a2', 'message', 'waiting', 1],
      ['t1', 'message', 'ok', 3],
      ['t2', 'schedule', 'failed', 1],
    ]);
  });

  it('filters by channel, user, origin, step and outcome; an empty filter keeps everything', () => {
    const turns = groupTurns(entries);
    expect(filterTurns(turns, {})).toHaveLength(3);
    expect(filterTurns(turns, { origin: 'schedule' }).map((turn) => turn.id)).toEqual(['t2']);
    expect(filterTurns(turns, { outcome: 'waiting', user: '2002' }).map((turn) => turn.id)).toEqual(['approval-a2']);
    expect(filterTurns(turns, { kind: 'approval-decided' }).map((turn) => turn.id)).toEqual(['t1']);
    expect(filterTurns(turns, { channel: 'other' })).toEqual([]);
  });
});
