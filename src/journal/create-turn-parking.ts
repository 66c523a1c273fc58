import type { InboundEvent } from '../events/inbound-event.js';
import type { Outbox, TurnFinished } from '../events/outbox.js';
import type { Messages } from '../i18n/messages.js';
import type { Logger } from '../logging/create-logger.js';
import type { AuditEntry } from '../registry/audit-log.js';
import type { ParkTurn } from './create-durable-intake.js';
import type { DeliveredReplies } from './delivered-replies.js';
import type { InboundJournal } from './inbound-journal.js';
import type { ParkedTurn, ParkedTurns } from './parked-turns.js';

/** How many turns are parked, and the newest, for `/healthz`. */
export type ParkedSummary = {
  readonly count: number;
  readonly newest?: { readonly id: string; readonly parkedAt: string; readonly sessionKey: string; readonly attempts: number };
};

/** Parking and what operators do with parked turns (`/parked`, `npm run parked`). */
export interface TurnParking {
  /** Sets an event aside: stored, audited (`turn-parked`), and its chat told once. */
  readonly park: ParkTurn;
  list(): Promise<readonly ParkedTurn[]>;
  get(id: string): Promise<ParkedTurn | undefined>;
  /** Puts the event back into the journal with its start count reset; the next re-drive runs it. Audited. */
  retry(id: string, by: string): Promise<ParkedTurn | undefined>;
  /** Forgets a parked turn for good. Audited. */
  drop(id: string, by: string): Promise<ParkedTurn | undefined>;
  summary(): Promise<ParkedSummary>;
}

/**
 * Parked resumptions (`turn-resumed`) are not journal rows: their turn lives in the suspended-turn and approval
 * records, which this puts back or ends (src/approvals/parked-resumptions.ts).
 */
export interface ResumptionControl {
  /** Resets the resumption's start count and clears its parked mark: the next sweep continues the turn. */
  retry(suspensionId: string): Promise<void>;
  /** Ends the resumption for good (approval marked done, suspension removed): no sweep picks it up again. */
  drop(suspensionId: string, by: string): Promise<void>;
}

/** What parking is built from; the command line passes no outbox (nobody is told) and no `requeued`. */
export type TurnParkingOptions = {
  readonly parked: ParkedTurns;
  readonly journal: InboundJournal;
  readonly audit: (entry: AuditEntry) => void;
  readonly logger?: Logger;
  /** Where the one-sentence notice goes, in the chat's language. */
  readonly notify?: { readonly outbox: Outbox; readonly messagesFor: (channel: string) => Messages; readonly turnFinished: (report: TurnFinished) => void };
  /**
   * Events whose final reply went out: one answered already is not parked (its re-run was going to be skipped), and a
   * retry forgets the record the set-aside notice left, or the retried run would be skipped as answered.
   */
  readonly delivered?: Pick<DeliveredReplies, 'has' | 'forget'>;
  /** Called after a retry put an event back (the app re-drives at once instead of at the next sweep). */
  readonly requeued?: () => void;
  /** Retries and drops parked resumptions; without it (runtimes with events only) they cannot be retried or dropped. */
  readonly resumptions?: ResumptionControl;
};

/** Whether a person waits for an answer in the event's chat: scheduled runs (and their resumptions) tell nobody. */
function hasWaitingPerson(event: InboundEvent): boolean {
  if (event.type === 'turn-resumed') return event.origin !== 'schedule';
  return event.type === 'message-received' || event.type === 'action-clicked';
}

/** Creates parking over the parked-turn store and the journal. */
export function createTurnParking(options: TurnParkingOptions): TurnParking {
  const { parked, journal, logger } = options;

  async function tell(event: InboundEvent): Promise<void> {
    const notify = options.notify;
    if (!notify || !hasWaitingPerson(event)) return;
    const text = notify.messagesFor(event.channel).parked.setAside;
    const target = { channel: event.channel, chatId: event.chatId, threadId: event.threadId, replyToMessageId: event.messageId };
    const delivery = await notify.outbox.send({ type: 'reply', target, text, kind: 'final', causationId: event.id });
    if (!delivery.ok) logger?.warn({ eventId: event.id, channel: event.channel }, 'the notice of a parked turn was not delivered');
    notify.turnFinished({ causationId: event.id, sessionKey: event.sessionKey, status: 'failed', text, delivery });
  }

  return {
    async park({ event, attempts, reason }) {
      if (await options.delivered?.has(event.id)) {
        logger?.info({ eventId: event.id }, 'interrupted event was answered already; not parked');
        return;
      }
      const { turn, isNew } = await parked.park({ event, attempts, reason });
      // Parked before (the process died before the journal row went): stored, audited and told already.
      if (!isNew) return;
      options.audit({ kind: 'turn-parked', traceId: event.traceId, sessionKey: event.sessionKey, channel: event.channel, userId: senderOf(event), attempts, outcome: `parked:${turn.id}`, reason });
      await tell(event).catch((error: unknown) => logger?.warn({ err: error, eventId: event.id }, 'the notice of a parked turn failed'));
    },
    list: () => parked.list(),
    get: (id) => parked.get(id),
    async retry(id, by) {
      const turn = await parked.get(id);
      if (!turn) return undefined;
      const { event } = turn;
      if (event.type === 'turn-resumed' && !options.resumptions) return undefined;
      // Put back first: a crash in between leaves it both parked and queued, never lost.
      await options.delivered?.forget(event.id);
      if (event.type === 'turn-resumed') await options.resumptions?.retry(event.suspensionId);
      else await journal.record(event, 0);
      await parked.remove(id);
      options.audit({ kind: 'turn-retried', traceId: turn.event.traceId, sessionKey: turn.event.sessionKey, channel: turn.event.channel, decidedBy: by, outcome: `retried:${id}` });
      options.requeued?.();
      return turn;
    },
    async drop(id, by) {
      const found = await parked.get(id);
      if (found?.event.type === 'turn-resumed') {
        if (!options.resumptions) return undefined;
        // Ended first: a crash in between leaves a parked record whose drop can be done again, never a live resumption.
        await options.resumptions.drop(found.event.suspensionId, by);
      }
      const turn = await parked.remove(id);
      if (turn) options.audit({ kind: 'turn-dropped', traceId: turn.event.traceId, sessionKey: turn.event.sessionKey, channel: turn.event.channel, decidedBy: by, outcome: `dropped:${id}` });
      return turn;
    },
    async summary() {
      const turns = await parked.list();
      const newest = turns.at(-1);
      return { count: turns.length, ...(newest ? { newest: { id: newest.id, parkedAt: newest.parkedAt, sessionKey: newest.event.sessionKey, attempts: newest.attempts } } : {}) };
    },
  };
}

function senderOf(event: InboundEvent): string | undefined {
  return event.type === 'message-received' || event.type === 'action-clicked' ? event.sender.id : undefined;
}
