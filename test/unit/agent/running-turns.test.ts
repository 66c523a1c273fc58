import { describe, expect, it } from 'vitest';
import { createRunningTurns } from '../../../src/agent/running-turns.js';

describe('running turns: a cancel of a session aborts its turns only', () => {
  it('aborts every turn of the session with who cancelled, leaves other sessions running, and forgets ended turns', () => {
    const turns = createRunningTurns();
    const first = new AbortController();
    const second = new AbortController();
    const other = new AbortController();
    const a = turns.begin('a2a-server:caller/t1', first);
    const b = turns.begin('a2a-server:caller/t1', second);
    const c = turns.begin('a2a-server:caller/t2', other);

    expect(turns.cancel('a2a-server:caller/t1', 'caller')).toBe(2);
    expect([first.signal.aborted, second.signal.aborted, other.signal.aborted]).toEqual([true, true, false]);
    expect([a.isCancelled(), a.cancelledBy(), c.isCancelled(), c.cancelledBy()]).toEqual([true, 'caller', false, undefined]);

    a.end();
    b.end();
    c.end();
    expect(turns.cancel('a2a-server:caller/t1', 'caller')).toBe(0);
    expect(turns.cancel('a2a-server:caller/t2', 'caller')).toBe(0);
    expect(other.signal.aborted).toBe(false);
  });
});

describe('running turns: a turn queued before a cancel of its session', () => {
  it('starts cancelled when its event was made before the cancel, and runs when made after it', () => {
    const clock = { now: new Date('2026-12-02T10:00:00.000Z') };
    const turns = createRunningTurns({ now: () => clock.now });
    expect(turns.cancel('a2a-server:caller/t1', 'caller')).toBe(0);

    const queuedBefore = new AbortController();
    const before = turns.begin('a2a-server:caller/t1', queuedBefore, '2026-12-02T09:59:59.000Z');
    expect([before.isCancelled(), before.cancelledBy(), queuedBefore.signal.aborted]).toEqual([true, 'caller', true]);

    const queuedAfter = new AbortController();
    const after = turns.begin('a2a-server:caller/t1', queuedAfter, '2026-12-02T10:00:01.000Z');
    expect([after.isCancelled(), queuedAfter.signal.aborted]).toEqual([false, false]);
    const otherSession = turns.begin('a2a-server:caller/t2', new AbortController(), '2026-12-02T09:59:59.000Z');
    expect(otherSession.isCancelled()).toBe(false);
  });
});
