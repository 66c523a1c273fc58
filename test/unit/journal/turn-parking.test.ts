// Poison-message quarantine in one process's terms: "a process" is an intake and a bus over the same store
// namespaces; "it dies" is dropping them with a turn unfinished (the handler never returns).
import { afterEach, describe, expect, it } from 'vitest';
import { createInProcessBus } from '../../../src/bus/create-in-process-bus.js';
import type { InboundEvent, MessageReceived, ScheduleFired, TurnResumed } from '../../../src/events/inbound-event.js';
import type { OutboundEvent } from '../../../src/events/outbound-event.js';
import type { TurnFinished } from '../../../src/events/outbox.js';
import { messagesFor } from '../../../src/i18n/messages.js';
import { createDurableIntake } from '../../../src/journal/create-durable-intake.js';
import { createTurnParking, type TurnParking } from '../../../src/journal/create-turn-parking.js';
import { createInboundJournal, type JournalEntry } from '../../../src/journal/inbound-journal.js';
import { createParkedTurns, type ParkedTurn, parkedTurnIdOf } from '../../../src/journal/parked-turns.js';
import type { AuditEntry } from '../../../src/registry/audit-log.js';
import { createStore } from '../../../src/store/create-store.js';
import type { KeyValueNamespace, Store } from '../../../src/store/key-value-namespace.js';
import { waitFor } from '../../fakes/start-test-app.js';
import { createTemporaryFolder } from '../registry/registry-fixtures.js';
import { silentLogger } from '../registry/turn-fixtures.js';

const folder = createTemporaryFolder('echo-parking-');
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
    messageId: `m-${id}`,
    sender: { id: '7', displayName: 'Ann' },
    text: `text of ${id}`,
    media: [],
    isGroup: false,
    mentioned: false,
  };
}

/** The store and what every "process" shares: the journal's and the parked turns' namespaces, and what was said and audited. */
async function openWorld() {
  store = await createStore({ dataDir: folder.path });
  const suffix = Math.random();
  const journalRows = store.namespace<JournalEntry>(`journal-${suffix}`);
  const parkedRows = store.namespace<ParkedTurn>(`parked-${suffix}`);
  const said: OutboundEvent[] = [];
  const finished: TurnFinished[] = [];
  const audited: AuditEntry[] = [];
  const delivered = new Set<string>();
  return { journalRows, parkedRows, said, finished, audited, delivered };
}

type World = Awaited<ReturnType<typeof openWorld>>;

/** One process: an intake, a bus whose handler records each start and, while `dies` says so, never finishes (its process dies). */
async function startProcess(world: World, dies: (event: InboundEvent) => boolean) {
  const logger = await silentLogger();
  const journal = createInboundJournal(world.journalRows);
  const bus = createInProcessBus({ maxConcurrentTurns: 4, maxQueued: 10, maxQueuedPerSession: 5, logger });
  let intake: ReturnType<typeof createDurableIntake> | undefined;
  const parking: TurnParking = createTurnParking({
    parked: createParkedTurns(world.parkedRows),
    journal,
    audit: (entry) => world.audited.push(entry),
    notify: {
      outbox: {
        send: async (event) => {
          world.said.push(event);
          // As the app's outbox does: a final reply marks its event answered.
          if (event.type === 'reply' && event.kind === 'final' && event.causationId) world.delivered.add(event.causationId);
          return { ok: true };
        },
      },
      messagesFor: () => messagesFor('en'),
      turnFinished: (report) => world.finished.push(report),
    },
    delivered: {
      has: async (eventId) => world.delivered.has(eventId),
      forget: async (eventId) => void world.delivered.delete(eventId),
    },
    requeued: () => void intake?.redrive(),
  });
  intake = createDurableIntake({ bus, journal, logger, parkAfter: 2, park: parking.park });
  const started: InboundEvent[] = [];
  const answered: string[] = [];
  bus.subscribe(async (event) => {
    // As the app does: the re-run of an answered event is skipped.
    if (event.redelivered === true && world.delivered.has(event.id)) {
      intake?.complete(event);
      return;
    }
    started.push(event);
    if (dies(event)) return new Promise<void>(() => undefined);
    answered.push(event.id);
    intake?.complete(event);
  });
  return { intake, bus, parking, started, answered };
}

const always = () => true;
const never = () => false;

async function attemptsOf(rows: KeyValueNamespace<JournalEntry>): Promise<Record<string, number>> {
  return Object.fromEntries((await rows.entries()).map(([id, entry]) => [id, entry.attempts]));
}

describe('parking a turn that keeps killing its process', () => {
  it('counts the first start in the accepting write and each re-run before it is queued; after two deaths the turn is parked, not run a third time', async () => {
    const world = await openWorld();
    const first = await startProcess(world, always);
    await first.intake.accept(message('poison'));
    expect(await attemptsOf(world.journalRows)).toEqual({ poison: 1 });

    const second = await startProcess(world, always);
    expect(await second.intake.redrive()).toBe(1);
    expect(second.started.map((event) => event.id)).toEqual(['poison']);
    expect(await attemptsOf(world.journalRows)).toEqual({ poison: 2 });

    const third = await startProcess(world, never);
    expect(await third.intake.redrive()).toBe(0);
    // Later sweeps find nothing: the notice is not said again.
    expect(await third.intake.redrive()).toBe(0);
    expect(third.started).toEqual([]);
    expect(await world.journalRows.entries()).toEqual([]);

    const parked = await third.parking.list();
    expect(parked).toMatchObject([{ id: parkedTurnIdOf('poison'), attempts: 2, event: { id: 'poison', text: 'text of poison' } }]);
    expect(parked[0]?.event.redelivered).toBeUndefined();
    expect(world.said).toEqual([
      { type: 'reply', target: { channel: 'telegram', chatId: '1', threadId: undefined, replyToMessageId: 'm-poison' }, text: 'I could not process your last message; it has been set aside.', kind: 'final', causationId: 'poison' },
    ]);
    expect(world.finished).toMatchObject([{ causationId: 'poison', status: 'failed' }]);
    expect(world.audited).toMatchObject([{ kind: 'turn-parked', sessionKey: 'telegram:1', userId: '7', attempts: 2, outcome: `parked:${parkedTurnIdOf('poison')}` }]);
    expect(await third.parking.summary()).toMatchObject({ count: 1, newest: { id: parkedTurnIdOf('poison'), sessionKey: 'telegram:1', attempts: 2 } });

    // The next message is answered as usual.
    await third.intake.accept(message('next'));
    await third.bus.idle();
    expect(third.answered).toEqual(['next']);
  });

  it('does not count messages waiting behind the killer in its conversation: they are answered once it is parked', async () => {
    const world = await openWorld();
    const killer = (event: InboundEvent) => event.id === 'poison';
    const first = await startProcess(world, killer);
    await first.intake.accept(message('poison'));
    await first.intake.accept(message('hello?'));
    expect(first.started.map((event) => event.id)).toEqual(['poison']);

    const second = await startProcess(world, killer);
    expect(await second.intake.redrive()).toBe(2);
    expect(await attemptsOf(world.journalRows)).toEqual({ poison: 2, 'hello?': 1 });

    const third = await startProcess(world, killer);
    expect(await third.intake.redrive()).toBe(1);
    await third.bus.idle();
    expect(third.answered).toEqual(['hello?']);
    expect((await third.parking.list()).map((turn) => turn.event.id)).toEqual(['poison']);
    expect(world.said.map((event) => (event.type === 'reply' ? event.causationId : undefined))).toEqual(['poison']);
  });

  it('parks an event once even when the process died between parking it and removing its journal row', async () => {
    const world = await openWorld();
    const first = await startProcess(world, never);
    await first.parking.park({ event: message('twice'), attempts: 2, reason: 'test' });
    await first.parking.park({ event: message('twice'), attempts: 3, reason: 'test' });
    expect(await first.parking.list()).toHaveLength(1);
    expect(world.said).toHaveLength(1);
    expect(world.audited).toHaveLength(1);
  });

  it('tells nobody about a parked scheduled run, and does not park an event whose answer was delivered already', async () => {
    const world = await openWorld();
    const first = await startProcess(world, never);
    const scheduled: ScheduleFired = { type: 'schedule-fired', id: 'job-run', traceId: 't', at: new Date(0).toISOString(), channel: 'telegram', chatId: '1', sessionKey: 'telegram:1', origin: 'schedule', unattended: true, jobId: 'daily', prompt: 'report' };
    await first.parking.park({ event: scheduled, attempts: 2, reason: 'test' });
    world.delivered.add('answered');
    await first.parking.park({ event: message('answered'), attempts: 2, reason: 'test' });
    expect((await first.parking.list()).map((turn) => turn.event.id)).toEqual(['job-run']);
    expect(world.said).toEqual([]);
    expect(world.audited.map((entry) => entry.kind)).toEqual(['turn-parked']);
  });

  it('retry puts the event back with its count reset (it runs at once and may be parked again after two more deaths); drop forgets it', async () => {
    const world = await openWorld();
    const first = await startProcess(world, always);
    await first.intake.accept(message('poison'));
    await first.intake.accept(message('other', 'telegram:2'));
    await (await startProcess(world, always)).intake.redrive();
    const third = await startProcess(world, never);
    await third.intake.redrive();
    expect((await third.parking.list()).map((turn) => turn.event.id).sort()).toEqual(['other', 'poison']);

    const poisonId = parkedTurnIdOf('poison');
    expect(await third.parking.retry('nope', 'telegram:7')).toBeUndefined();
    expect(await third.parking.retry(poisonId, 'telegram:7')).toMatchObject({ id: poisonId });
    // The retry re-drives at once, in the background.
    await waitFor(() => third.answered.length > 0, 'the retried event to run');
    expect(third.answered).toEqual(['poison']);
    expect(third.started.at(-1)).toMatchObject({ id: 'poison', redelivered: true });
    expect(await third.parking.drop(parkedTurnIdOf('other'), 'telegram:7')).toMatchObject({ event: { id: 'other' } });
    expect(await third.parking.list()).toEqual([]);
    expect(world.audited.map((entry) => [entry.kind, entry.decidedBy])).toEqual([
      ['turn-parked', undefined],
      ['turn-parked', undefined],
      ['turn-retried', 'telegram:7'],
      ['turn-dropped', 'telegram:7'],
    ]);

    // A retried event that kills the process twice more is parked again, and its chat told again.
    const world2 = await openWorld();
    const a = await startProcess(world2, always);
    await a.intake.accept(message('again'));
    await (await startProcess(world2, always)).intake.redrive();
    const b = await startProcess(world2, always);
    await b.intake.redrive();
    await b.parking.retry(parkedTurnIdOf('again'), 'cli:ops');
    await waitFor(async () => (await attemptsOf(world2.journalRows)).again === 1, 'the retried event to start');
    await (await startProcess(world2, always)).intake.redrive();
    expect(await attemptsOf(world2.journalRows)).toEqual({ again: 2 });
    const last = await startProcess(world2, never);
    expect(await last.intake.redrive()).toBe(0);
    expect((await last.parking.list()).map((turn) => turn.event.id)).toEqual(['again']);
    expect(world2.said).toHaveLength(2);
  });
});

describe('parking a resumed turn', () => {
  function resumption(suspensionId: string, origin: TurnResumed['origin']): TurnResumed {
    return { type: 'turn-resumed', id: `resume-${suspensionId}`, traceId: 't', at: new Date(0).toISOString(), channel: 'telegram', chatId: '1', threadId: '9', messageId: 'm-1', sessionKey: 'telegram:1', origin, unattended: origin !== 'user', suspensionId };
  }

  it("tells the origin chat (in its thread) of a person's resumption, nobody of a scheduled one; retry and drop go to the resumption's records, not the journal", async () => {
    const world = await openWorld();
    const calls: string[] = [];
    const parking = createTurnParking({
      parked: createParkedTurns(world.parkedRows),
      journal: createInboundJournal(world.journalRows),
      audit: (entry) => world.audited.push(entry),
      notify: {
        outbox: {
          send: async (event) => {
            world.said.push(event);
            return { ok: true };
          },
        },
        messagesFor: () => messagesFor('en'), turnFinished: (report) => world.finished.push(report) },
      resumptions: { retry: async (id) => void calls.push(`retry ${id}`), drop: async (id, by) => void calls.push(`drop ${id} by ${by}`) },
    });
    await parking.park({ event: resumption('approval-1', 'user'), attempts: 2, reason: 'test' });
    await parking.park({ event: resumption('job-approval', 'schedule'), attempts: 2, reason: 'test' });
    expect(world.said).toEqual([
      { type: 'reply', target: { channel: 'telegram', chatId: '1', threadId: '9', replyToMessageId: 'm-1' }, text: 'I could not process your last message; it has been set aside.', kind: 'final', causationId: 'resume-approval-1' },
    ]);
    expect(await parking.retry(parkedTurnIdOf('resume-approval-1'), 'cli:ops')).toMatchObject({ event: { suspensionId: 'approval-1' } });
    expect(await parking.drop(parkedTurnIdOf('resume-job-approval'), 'telegram:7')).toMatchObject({ event: { suspensionId: 'job-approval' } });
    expect(calls).toEqual(['retry approval-1', 'drop job-approval by telegram:7']);
    expect(await world.journalRows.entries()).toEqual([]);
    expect(await parking.list()).toEqual([]);

    // Built without the resumptions' records (events only), a parked resumption is neither retried nor dropped.
    const eventsOnly = createTurnParking({ parked: createParkedTurns(world.parkedRows), journal: createInboundJournal(world.journalRows), audit: () => undefined });
    await eventsOnly.park({ event: resumption('approval-2', 'user'), attempts: 2, reason: 'test' });
    expect(await eventsOnly.retry(parkedTurnIdOf('resume-approval-2'), 'cli:ops')).toBeUndefined();
    expect(await eventsOnly.drop(parkedTurnIdOf('resume-approval-2'), 'cli:ops')).toBeUndefined();
    expect(await eventsOnly.list()).toHaveLength(1);
  });
});
