import { describe, expect, it } from 'vitest';
import type { EventHandler, MessageBus } from '../../src/bus/message-bus.js';
import type { InboundEvent } from '../../src/events/inbound-event.js';
import { waitFor } from '../fakes/start-test-app.js';

/** A bus under test, with what only some buses need to move on. */
export type BusUnderTest = {
  readonly bus: MessageBus;
  /** What the app's sweep does about an event that failed for good (a shared queue deletes it); nothing for the in-process bus. */
  sweep(): Promise<void>;
  close(): Promise<void>;
};

let counter = 0;
/** A message event in a session. */
export function messageIn(sessionKey: string, text: string): InboundEvent {
  counter += 1;
  return {
    type: 'message-received',
    id: `bus-contract-${process.pid}-${counter}-${Math.random().toString(36).slice(2, 8)}`,
    traceId: `trace-${counter}`,
    at: new Date(0).toISOString(),
    channel: 'telegram',
    chatId: sessionKey.split(':')[1] ?? 'x',
    sessionKey,
    origin: 'user',
    unattended: false,
    sender: { id: '42', displayName: 'Bob' },
    text,
    media: [],
    isGroup: false,
    mentioned: false,
  };
}

const textOf = (event: InboundEvent) => (event.type === 'message-received' ? event.text : event.type);
const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** The behaviour every bus must show; run against the in-process bus and the pg-boss queue of cluster mode. */
export function describeBusContract(name: string, open: () => Promise<BusUnderTest>, options: { skip?: string } = {}): void {
  const suite = options.skip ? describe.skip : describe;
  suite(`bus contract: ${name}${options.skip ? ` (skipped: ${options.skip})` : ''}`, () => {
    async function withBus(handler: EventHandler, body: (under: BusUnderTest) => Promise<void>): Promise<void> {
      const under = await open();
      try {
        under.bus.subscribe(handler);
        await body(under);
      } finally {
        await under.close();
      }
    }

    it('runs one session in order, one event at a time', async () => {
      const seen: string[] = [];
      let running = 0;
      let most = 0;
      const session = `telegram:${Math.random()}`;
      await withBus(
        async (event) => {
          running += 1;
          most = Math.max(most, running);
          await sleep(10);
          seen.push(textOf(event));
          running -= 1;
        },
        async ({ bus }) => {
          for (let number = 1; number <= 6; number += 1) expect(await bus.publish(messageIn(session, `m${number}`))).toEqual({ accepted: true });
          await waitFor(() => (seen.length === 6 ? true : undefined), 'six events handled', 20_000);
        },
      );
      expect(seen).toEqual(['m1', 'm2', 'm3', 'm4', 'm5', 'm6']);
      expect(most).toBe(1);
    }, 30_000);

    it('runs different sessions side by side', async () => {
      // The first session's event waits until the second session's has run: a bus that ran sessions one after another would never finish.
      let releaseFirst: () => void = () => undefined;
      const firstMayEnd = new Promise<void>((resolve) => (releaseFirst = resolve));
      const finished: string[] = [];
      await withBus(
        async (event) => {
          if (textOf(event) === 'first') await firstMayEnd;
          else releaseFirst();
          finished.push(textOf(event));
        },
        async ({ bus }) => {
          await bus.publish(messageIn(`telegram:a${Math.random()}`, 'first'));
          await bus.publish(messageIn(`telegram:b${Math.random()}`, 'second'));
          await waitFor(() => (finished.length === 2 ? true : undefined), 'both sessions handled', 20_000);
        },
      );
      expect(finished).toEqual(['second', 'first']);
    }, 30_000);

    it('does not let an event that always fails block its session for good', async () => {
      const session = `telegram:${Math.random()}`;
      const seen: string[] = [];
      await withBus(
        async (event) => {
          seen.push(textOf(event));
          if (textOf(event) === 'poison') throw new Error('this event always fails');
        },
        async (under) => {
          await under.bus.publish(messageIn(session, 'poison'));
          await under.bus.publish(messageIn(session, 'after the poison'));
          await waitFor(
            async () => {
              await under.sweep();
              return seen.includes('after the poison') ? true : undefined;
            },
            'the next event of the session',
            25_000,
          );
        },
      );
      expect(seen.filter((text) => text === 'after the poison')).toHaveLength(1);
      expect(seen.indexOf('poison')).toBeLessThan(seen.indexOf('after the poison'));
    }, 30_000);

    it('refuses events once drained, and reports how many are running', async () => {
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      let started = false;
      await withBus(
        async () => {
          started = true;
          await held;
        },
        async ({ bus }) => {
          await bus.publish(messageIn(`telegram:${Math.random()}`, 'held'));
          await waitFor(() => (started ? true : undefined), 'the event running', 20_000);
          expect(bus.stats().active).toBe(1);
          const draining = bus.drain(5000);
          expect(await bus.publish(messageIn(`telegram:${Math.random()}`, 'late'))).toEqual({ accepted: false, reason: 'closed' });
          release();
          expect(await draining).toEqual({ drained: true, abandoned: 0 });
        },
      );
    }, 30_000);
  });
}
