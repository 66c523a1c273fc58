import { describe, expect, it } from 'vitest';
import { createSendPacer } from '../../../../channels/wechat/index.js';

/** A clock that only moves when the pacer sleeps, so waits are exact and the test never waits for real. */
function fakeClock() {
  let time = 1_000_000;
  const sleeps: number[] = [];
  return {
    now: () => time,
    sleeps,
    sleep: async (milliseconds: number) => {
      sleeps.push(milliseconds);
      time += milliseconds;
    },
    advance: (milliseconds: number) => {
      time += milliseconds;
    },
  };
}

describe('createSendPacer', () => {
  it('spaces sends in one conversation by the interval plus jitter, in order', async () => {
    const clock = fakeClock();
    const pacer = createSendPacer({ intervalMs: 1000, jitterMs: 400, now: clock.now, sleep: clock.sleep, random: () => 0.5 });
    const sentAt: Array<[string, number]> = [];
    const send = (text: string) => pacer.run('wxid_alice', async () => sentAt.push([text, clock.now()]));
    await Promise.all([send('a'), send('b'), send('c')]);
    expect(sentAt.map(([text]) => text)).toEqual(['a', 'b', 'c']);
    expect(clock.sleeps).toEqual([1200, 1200]);
    const times = sentAt.map(([, at]) => at);
    expect(times.slice(1).map((at, index) => at - (times[index] ?? 0))).toEqual([1200, 1200]);
  });

  it('does not make other conversations wait', async () => {
    const clock = fakeClock();
    const pacer = createSendPacer({ intervalMs: 1000, jitterMs: 0, now: clock.now, sleep: clock.sleep });
    await pacer.run('wxid_alice', async () => undefined);
    await pacer.run('team@chatroom', async () => undefined);
    expect(clock.sleeps).toEqual([]);
  });

  it('waits only what is left of the interval', async () => {
    const clock = fakeClock();
    const pacer = createSendPacer({ intervalMs: 1000, jitterMs: 0, now: clock.now, sleep: clock.sleep });
    await pacer.run('wxid_alice', async () => undefined);
    clock.advance(700);
    await pacer.run('wxid_alice', async () => undefined);
    clock.advance(5000);
    await pacer.run('wxid_alice', async () => undefined);
    expect(clock.sleeps).toEqual([300]);
  });

  it('keeps going after a send fails', async () => {
    const clock = fakeClock();
    const pacer = createSendPacer({ intervalMs: 10, jitterMs: 0, now: clock.now, sleep: clock.sleep });
    const failed = pacer.run('wxid_alice', async () => Promise.reject(new Error('risk control')));
    const next = pacer.run('wxid_alice', async () => 'sent');
    await expect(failed).rejects.toThrow('risk control');
    await expect(next).resolves.toBe('sent');
  });
});
