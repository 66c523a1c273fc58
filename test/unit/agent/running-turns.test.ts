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
