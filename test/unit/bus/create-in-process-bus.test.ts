import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createInProcessBus, type InProcessBusOptions } from '../../../src/bus/create-in-process-bus.js';
import type { MessageBus } from '../../../src/bus/message-bus.js';
import type { InboundEvent } from '../../../src/events/inbound-event.js';
import { createLogger } from '../../../src/logging/create-logger.js';

type Deferred = { readonly promise: Promise<void>; resolve(): void; reject(error: Error): void };

function deferred(): Deferred {
  let resolve: () => void = () => undefined;
  let reject: (error: Error) => void = () => undefined;
  const promise = new Promise<void>((done, fail) => {
    resolve = done;
    reject = fail;
  });
  return { promise, resolve, reject };
}

let eventCounter = 0;
function eventIn(sessionKey: string, text = 'hi'): InboundEvent {
  eventCounter += 1;
  const chatId = sessionKey.split(':')[1] ?? 'x';
  return {
    type: 'message-received',
    id: `event-${eventCounter}`,
    traceId: `trace-${eventCounter}`,
    at: new Date(0).toISOString(),
    channel: 'telegram',
    chatId,
    sessionKey,
    origin: 'user',
    unattended: false,
    sender: { id: '42', displayName: 'Bob' },
    text,
    media: [],
    isGroup: false,
    mentioned: false,
  } as InboundEvent;
}

async function createBus(options: Partial<Omit<InProcessBusOptions, 'logger'>> = {}) {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const logger = await createLogger({ level: 'info', pretty: false, destination });
  const bus = createInProcessBus({ maxConcurrentTurns: 4, maxQueued: 100, maxQueuedPerSession: 20, ...options, logger });
  return { bus, lines };
}

/** A handler whose every event waits until the test releases it; tracks what runs at once. */
function controlledHandler(bus: MessageBus) {
  const gates = new Map<string, Deferred>();
  const started: string[] = [];
  const finished: string[] = [];
  const runningSessions = new Map<string, number>();
  let running = 0;
  let maxRunning = 0;
  let maxPerSession = 0;
  bus.subscribe(async (event) => {
    const gate = deferred();
    gates.set(event.id, gate);
    started.push(event.id);
    running += 1;
    maxRunning = Math.max(maxRunning, running);
    const inSession = (runningSessions.get(event.sessionKey) ?? 0) + 1;
    runningSessions.set(event.sessionKey, inSession);
    maxPerSession = Math.max(maxPerSession, inSession);
    try {
      await gate.promise;
    } finally {
      running -= 1;
      runningSessions.set(event.sessionKey, (runningSessions.get(event.sessionKey) ?? 1) - 1);
      finished.push(event.id);
    }
  });
  return {
    started,
    finished,
    get maxRunning() {
      return maxRunning;
    },
    get maxPerSession() {
      return maxPerSession;
    },
    /** Lets one started event finish, and waits until the bus has reacted. */
    async release(id: string) {
      const gate = gates.get(id);
      if (!gate) throw new Error(`${id} has not started`);
      gate.resolve();
      await settle();
    },
  };
}

/** Lets pending promise callbacks run. */
async function settle(): Promise<void> {
  for (let index = 0; index < 10; index += 1) await new Promise((resolve) => setImmediate(resolve));
}

describe('createInProcessBus', () => {
  it('delivers events of one session one at a time, in order', async () => {
    const { bus } = await createBus();
    const handler = controlledHandler(bus);
    const events = [1, 2, 3, 4].map((index) => eventIn('telegram:1', `m${index}`));
    for (const event of events) expect(await bus.publish(event)).toEqual({ accepted: true });
    expect(handler.started).toEqual([events[0]?.id]);
    for (const event of events) await handler.release(event.id);
    expect(handler.started).toEqual(events.map((event) => event.id));
    expect(handler.finished).toEqual(events.map((event) => event.id));
    expect(handler.maxPerSession).toBe(1);
  });

  it('runs sessions in parallel, never more than maxConcurrentTurns at once', async () => {
    const { bus } = await createBus({ maxConcurrentTurns: 2 });
    const handler = controlledHandler(bus);
    const events = ['a', 'b', 'c', 'd', 'e'].map((session) => eventIn(`telegram:${session}`));
    for (const event of events) await bus.publish(event);
    expect(handler.started).toEqual([events[0]?.id, events[1]?.id]);
    expect(bus.stats()).toEqual({ queued: 3, active: 2, sessions: 5 });
    await handler.release(events[1]?.id ?? '');
    expect(handler.started).toEqual([events[0]?.id, events[1]?.id, events[2]?.id]);
    for (const event of events.slice(2)) await handler.release(event.id);
    await handler.release(events[0]?.id ?? '');
    expect(handler.started).toHaveLength(5);
    expect(handler.maxRunning).toBe(2);
    expect(bus.stats()).toEqual({ queued: 0, active: 0, sessions: 0 });
  });

  it('reaches maxConcurrentTurns when enough sessions wait', async () => {
    const { bus } = await createBus({ maxConcurrentTurns: 3 });
    const handler = controlledHandler(bus);
    const events = Array.from({ length: 6 }, (_, index) => eventIn(`telegram:s${index}`));
    for (const event of events) await bus.publish(event);
    expect(handler.maxRunning).toBe(3);
    for (const event of events) {
      if (!handler.started.includes(event.id)) await settle();
      await handler.release(event.id);
    }
    expect(handler.maxRunning).toBe(3);
    expect(handler.finished).toHaveLength(6);
  });

  it('does not let a busy session hold back another session', async () => {
    const { bus } = await createBus({ maxConcurrentTurns: 2 });
    const handler = controlledHandler(bus);
    const busy = [eventIn('telegram:busy'), eventIn('telegram:busy'), eventIn('telegram:busy')];
    const other = eventIn('telegram:other');
    for (const event of busy) await bus.publish(event);
    await bus.publish(other);
    expect(handler.started).toEqual([busy[0]?.id, other.id]);
  });

  it('refuses with busy when maxQueued events are waiting', async () => {
    const { bus } = await createBus({ maxConcurrentTurns: 1, maxQueued: 2 });
    const handler = controlledHandler(bus);
    const first = eventIn('telegram:1');
    expect(await bus.publish(first)).toEqual({ accepted: true });
    expect(await bus.publish(eventIn('telegram:2'))).toEqual({ accepted: true });
    expect(await bus.publish(eventIn('telegram:3'))).toEqual({ accepted: true });
    expect(await bus.publish(eventIn('telegram:4'))).toEqual({ accepted: false, reason: 'busy' });
    expect(bus.stats().queued).toBe(2);
    await handler.release(first.id);
    expect(await bus.publish(eventIn('telegram:5'))).toEqual({ accepted: true });
  });

  it('refuses with busy when one session has maxQueuedPerSession waiting, while others still get in', async () => {
    const { bus } = await createBus({ maxQueuedPerSession: 2 });
    controlledHandler(bus);
    expect(await bus.publish(eventIn('telegram:1'))).toEqual({ accepted: true });
    expect(await bus.publish(eventIn('telegram:1'))).toEqual({ accepted: true });
    expect(await bus.publish(eventIn('telegram:1'))).toEqual({ accepted: true });
    expect(await bus.publish(eventIn('telegram:1'))).toEqual({ accepted: false, reason: 'busy' });
    expect(await bus.publish(eventIn('telegram:2'))).toEqual({ accepted: true });
  });

  it('logs a failing handler with its event, and the next event of that session still runs', async () => {
    const { bus, lines } = await createBus();
    const seen: string[] = [];
    const failing = eventIn('telegram:1', 'fail');
    const next = eventIn('telegram:1', 'next');
    bus.subscribe(async (event) => {
      seen.push(event.id);
      if (event.type === 'message-received' && event.text === 'fail') throw new Error('handler exploded');
    });
    await bus.publish(failing);
    await bus.publish(next);
    await bus.idle();
    expect(seen).toEqual([failing.id, next.id]);
    const logged = lines.find((line) => line.msg === 'event handler failed');
    expect(logged).toMatchObject({ level: 50, eventId: failing.id, eventType: 'message-received', sessionKey: 'telegram:1', traceId: failing.traceId, err: { message: 'handler exploded' } });
  });

  it('survives a handler that throws synchronously', async () => {
    const { bus, lines } = await createBus();
    const seen: string[] = [];
    bus.subscribe((event) => {
      seen.push(event.id);
      if (seen.length === 1) throw new Error('sync throw');
      return Promise.resolve();
    });
    await bus.publish(eventIn('telegram:1'));
    await bus.publish(eventIn('telegram:1'));
    await bus.idle();
    expect(seen).toHaveLength(2);
    expect(lines.filter((line) => line.msg === 'event handler failed')).toHaveLength(1);
  });

  it('keeps events published before subscribe and delivers them once a handler is set', async () => {
    const { bus } = await createBus();
    const event = eventIn('telegram:1');
    await bus.publish(event);
    const seen: string[] = [];
    bus.subscribe(async (delivered) => {
      seen.push(delivered.id);
    });
    await bus.idle();
    expect(seen).toEqual([event.id]);
  });

  it('drain waits for running and queued events, then refuses new ones as closed', async () => {
    const { bus } = await createBus({ maxConcurrentTurns: 1 });
    const handler = controlledHandler(bus);
    const first = eventIn('telegram:1');
    const second = eventIn('telegram:2');
    await bus.publish(first);
    await bus.publish(second);
    let drainResult: unknown;
    const draining = bus.drain(60_000).then((result) => {
      drainResult = result;
    });
    expect(await bus.publish(eventIn('telegram:3'))).toEqual({ accepted: false, reason: 'closed' });
    await handler.release(first.id);
    expect(drainResult).toBeUndefined();
    await handler.release(second.id);
    await draining;
    expect(drainResult).toEqual({ drained: true, abandoned: 0 });
    expect(handler.finished).toEqual([first.id, second.id]);
    expect(await bus.publish(eventIn('telegram:4'))).toEqual({ accepted: false, reason: 'closed' });
  });

  it('drain of an idle bus resolves at once as drained', async () => {
    const { bus } = await createBus();
    controlledHandler(bus);
    expect(await bus.drain(60_000)).toEqual({ drained: true, abandoned: 0 });
    expect(await bus.publish(eventIn('telegram:1'))).toEqual({ accepted: false, reason: 'closed' });
  });

  it('drain that times out reports what it abandoned', async () => {
    const { bus } = await createBus({ maxConcurrentTurns: 1 });
    controlledHandler(bus);
    await bus.publish(eventIn('telegram:1'));
    await bus.publish(eventIn('telegram:1'));
    await bus.publish(eventIn('telegram:2'));
    expect(await bus.drain(5)).toEqual({ drained: false, abandoned: 3 });
  });

  it('idle() resolves when nothing is queued or running, and keeps intake open', async () => {
    const { bus } = await createBus();
    const handler = controlledHandler(bus);
    await bus.idle();
    const event = eventIn('telegram:1');
    await bus.publish(event);
    let idle = false;
    const waiting = bus.idle().then(() => {
      idle = true;
    });
    await settle();
    expect(idle).toBe(false);
    await handler.release(event.id);
    await waiting;
    expect(idle).toBe(true);
    expect(await bus.publish(eventIn('telegram:1'))).toEqual({ accepted: true });
  });
});
