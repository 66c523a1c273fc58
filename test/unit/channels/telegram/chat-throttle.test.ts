import { describe, expect, it } from 'vitest';
import { createChatThrottle, type ThrottleClock } from '../../../../channels/telegram/chat-throttle.js';

/** A manual clock: time moves only when the test says so, and due timers run then. */
function manualClock(): ThrottleClock & { advance(milliseconds: number): void } {
  let now = 0;
  const timers: { due: number; callback: () => void }[] = [];
  return {
    now: () => now,
    setTimer: (callback, delayMs) => void timers.push({ due: now + delayMs, callback }),
    advance(milliseconds) {
      now += milliseconds;
      for (const timer of timers.splice(0).sort((left, right) => left.due - right.due)) {
        if (timer.due <= now) timer.callback();
        else timers.push(timer);
      }
    },
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('chat throttle', () => {
  it('lets a burst through, then one message a second per chat, in order, dropping nothing', async () => {
    const clock = manualClock();
    const throttle = createChatThrottle({ perChatPerSecond: 1, perChatBurst: 2, perGroupPerMinute: 20, globalPerSecond: 30 }, clock);
    const granted: number[] = [];
    for (const index of [1, 2, 3, 4]) void throttle.acquire('100').then(() => granted.push(index));
    await settle();
    expect(granted).toEqual([1, 2]);
    expect(throttle.waiting()).toBe(2);
    clock.advance(1000);
    await settle();
    expect(granted).toEqual([1, 2, 3]);
    clock.advance(1000);
    await settle();
    expect(granted).toEqual([1, 2, 3, 4]);
    expect(throttle.waiting()).toBe(0);
  });

  it('does not hold one chat behind another, and applies the per-minute limit to groups', async () => {
    const clock = manualClock();
    const throttle = createChatThrottle({ perChatPerSecond: 100, perChatBurst: 100, perGroupPerMinute: 2, globalPerSecond: 1000 }, clock);
    const granted: string[] = [];
    for (const chat of ['-5', '-5', '-5', '7']) void throttle.acquire(chat).then(() => granted.push(chat));
    await settle();
    expect(granted).toEqual(['-5', '-5', '7']);
    clock.advance(29_000);
    await settle();
    expect(granted).toHaveLength(3);
    clock.advance(1_000);
    await settle();
    expect(granted).toEqual(['-5', '-5', '7', '-5']);
  });

  it('holds everyone to the global rate', async () => {
    const clock = manualClock();
    const throttle = createChatThrottle({ perChatPerSecond: 100, perChatBurst: 100, perGroupPerMinute: 100, globalPerSecond: 2 }, clock);
    let granted = 0;
    for (const chat of ['1', '2', '3', '4']) void throttle.acquire(chat).then(() => (granted += 1));
    await settle();
    expect(granted).toBe(2);
    clock.advance(1000);
    await settle();
    expect(granted).toBe(4);
  });
});
