import { afterEach, describe, expect, it } from 'vitest';
import { createInProcessBus } from '../../../src/bus/create-in-process-bus.js';
import type { InboundEvent, MessageReceived } from '../../../src/events/inbound-event.js';
import { createDurableIntake, type ParkTurn } from '../../../src/journal/create-durable-intake.js';
import { createInboundJournal, type JournalEntry } from '../../../src/journal/inbound-journal.js';
import { createStore } from '../../../src/store/create-store.js';
import type { KeyValueNamespace, Store } from '../../../src/store/key-value-namespace.js';
import { createTemporaryFolder } from '../registry/registry-fixtures.js';
import { silentLogger } from '../registry/turn-fixtures.js';

const folder = createTemporaryFolder('echo-journal-');
let store: Store | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

function message(id: string, sessionKey = 'telegram:1'): MessageReceived {
  return {
    type: 'message-received',
    id,
    traceId: `trace-${id}`,
    at: new Date(0).toISOString(),
    channel: 'telegram',
    chatId: sessionKey.split(':')[1] ?? '1',
    sessionKey,
    origin: 'user',
    unattended: false,
    sender: { id: '1', displayName: 'Ann' },
    text: `text of ${id}`,
    media: [],
    isGroup: false,
    mentioned: false,
    raw: { huge: 'x'.repeat(10_000) },
  };
}

async function openJournal() {
  store = await createStore({ dataDir: folder.path });
  return store.namespace<JournalEntry>(`journal-${Math.random()}`);
}

describe('the durable intake', () => {
  it('records an event before queueing it, and forgets it once its handling is complete', async () => {
    const namespace = await openJournal();
    const bus = createInProcessBus({ maxConcurrentTurns: 4, maxQueued: 10, maxQueuedPerSession: 5, logger: await silentLogger() });
    const intake = createDurableIntake({ bus, journal: createInboundJournal(namespace), logger: await silentLogger() });
    const seenInJournal: boolean[] = [];
    bus.subscribe(async (event) => {
      seenInJournal.push((await namespace.get(event.id)) !== undefined);
      intake.complete(event);
    });
    expect(await intake.accept(message('a'))).toEqual({ accepted: true });
    await bus.idle();
    // The row's removal runs off the session's lane: wait for it as the app does before closing the store.
    await intake.flush();
    expect(seenInJournal).toEqual([true]);
    expect(await namespace.entries()).toEqual([]);
  });

  it('refuses an event it could not record, so the channel does not acknowledge it, and the bus never runs it', async () => {
    const failing: KeyValueNamespace<JournalEntry> = {
      ...(await openJournal()),
      set: async () => {
        throw new Error('disk full');
      },
    };
    const bus = createInProcessBus({ maxConcurrentTurns: 4, maxQueued: 10, maxQueuedPerSession: 5, logger: await silentLogger() });
    const ran: string[] = [];
    bus.subscribe(async (event) => void ran.push(event.id));
    const intake = createDurableIntake({ bus, journal: createInboundJournal(failing), logger: await silentLogger() });
    expect(await intake.accept(message('a'))).toEqual({ accepted: false, reason: 'unavailable' });
    await bus.idle();
    expect(ran).toEqual([]);
  });

  it('after a restart, runs unfinished events again in the order they were accepted, marked as redelivered, without their raw payload', async () => {
    const namespace = await openJournal();
    const first = createInProcessBus({ maxConcurrentTurns: 4, maxQueued: 10, maxQueuedPerSession: 5, logger: await silentLogger() });
    // The first process accepts three events and dies before handling any (no subscriber).
    const before = createDurableIntake({ bus: first, journal: createInboundJournal(namespace), logger: await silentLogger() });
    for (const id of ['a', 'b', 'c']) await before.accept(message(id, id === 'b' ? 'telegram:2' : 'telegram:1'));

    const bus = createInProcessBus({ maxConcurrentTurns: 1, maxQueued: 10, maxQueuedPerSession: 5, logger: await silentLogger() });
    const intake = createDurableIntake({ bus, journal: createInboundJournal(namespace), logger: await silentLogger() });
    const ran: InboundEvent[] = [];
    bus.subscribe(async (event) => {
      ran.push(event);
      intake.complete(event);
    });
    expect(await intake.redrive()).toBe(3);
    await bus.idle();
    expect(ran.map((event) => event.id)).toEqual(['a', 'b', 'c']);
    expect(ran.every((event) => event.redelivered === true && event.raw === undefined)).toBe(true);
    await intake.flush();
    expect(await intake.redrive()).toBe(0);
  });

  it('does not queue an event twice while it runs, and parks an event that keeps failing instead of running it a third time', async () => {
    const namespace = await openJournal();
    const bus = createInProcessBus({ maxConcurrentTurns: 4, maxQueued: 10, maxQueuedPerSession: 5, logger: await silentLogger() });
    const parked: { id: string; attempts: number }[] = [];
    const park: ParkTurn = async ({ event, attempts }) => void parked.push({ id: event.id, attempts });
    const intake = createDurableIntake({ bus, journal: createInboundJournal(namespace), logger: await silentLogger(), parkAfter: 2, park });
    let runs = 0;
    let holdFirst: (() => void) | undefined;
    bus.subscribe(async (event) => {
      runs += 1;
      if (runs === 1) await new Promise<void>((resolve) => (holdFirst = resolve));
      // A handler that fails every time: the event stays in the journal for the next sweep.
      intake.release(event);
    });
    await intake.accept(message('poison'));
    // Running now: a sweep leaves it alone.
    expect(await intake.redrive()).toBe(0);
    holdFirst?.();
    await bus.idle();
    expect(await intake.redrive()).toBe(1);
    await bus.idle();
    // Started twice, interrupted twice: parked, not queued.
    expect(await intake.redrive()).toBe(0);
    expect(await intake.redrive()).toBe(0);
    expect(runs).toBe(2);
    expect(parked).toEqual([{ id: 'poison', attempts: 2 }]);
    expect(await namespace.entries()).toEqual([]);
  });

  it('forgets an event the bus refused as busy: the channel asks the person to send it again', async () => {
    const namespace = await openJournal();
    const bus = createInProcessBus({ maxConcurrentTurns: 1, maxQueued: 1, maxQueuedPerSession: 1, logger: await silentLogger() });
    const intake = createDurableIntake({ bus, journal: createInboundJournal(namespace), logger: await silentLogger() });
    expect(await intake.accept(message('a'))).toEqual({ accepted: true });
    expect(await intake.accept(message('b'))).toEqual({ accepted: false, reason: 'busy' });
    expect((await namespace.entries()).map(([id]) => id)).toEqual(['a']);
  });
});
