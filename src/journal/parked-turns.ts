import { createHash } from 'node:crypto';
import type { InboundEvent } from '../events/inbound-event.js';
import type { KeyValueNamespace } from '../store/key-value-namespace.js';

/** An event whose turn was interrupted too often to be run again: set aside until an operator retries or drops it. */
export type ParkedTurn = {
  /** A short id people type (`/parked retry <id>`); the same for the same event, so parking it twice keeps one row. */
  readonly id: string;
  /** The event as accepted, without its platform payload. */
  readonly event: InboundEvent;
  /** Starts it had when parked (each one interrupted: the process died or the turn failed). */
  readonly attempts: number;
  /** When it was parked (ISO 8601). */
  readonly parkedAt: string;
  /** Why, in one line, for operators. */
  readonly reason: string;
};

/** The parked turns (store namespace `parked-turns`). */
export interface ParkedTurns {
  /** Parks an event; `isNew` is false when it was parked already (a crash between parking and the journal's removal). */
  park(input: { readonly event: InboundEvent; readonly attempts: number; readonly reason: string }): Promise<{ readonly turn: ParkedTurn; readonly isNew: boolean }>;
  /** Every parked turn, oldest first. */
  list(): Promise<readonly ParkedTurn[]>;
  get(id: string): Promise<ParkedTurn | undefined>;
  /** Removes one; resolves to what was removed, or undefined when there was none. */
  remove(id: string): Promise<ParkedTurn | undefined>;
}

/** Parked turns nobody looked at are kept this long, then dropped by the store. */
const keepParkedMs = 30 * 24 * 60 * 60 * 1000;
const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';

/** The parked turn id of an event: 10 characters derived from its id (the same event always gets the same one). */
export function parkedTurnIdOf(eventId: string): string {
  const digest = createHash('sha256').update(eventId).digest();
  let id = '';
  for (const byte of digest.subarray(0, 10)) id += alphabet[byte % alphabet.length];
  return id;
}

/** Creates the parked turns over one store namespace. */
export function createParkedTurns(namespace: KeyValueNamespace<ParkedTurn>, now: () => Date = () => new Date()): ParkedTurns {
  return {
    async park({ event, attempts, reason }) {
      const id = parkedTurnIdOf(event.id);
      const { raw: _raw, redelivered: _redelivered, ...kept } = event;
      let isNew = false;
      const turn = await namespace.update(
        id,
        (current) => {
          if (current) return current;
          isNew = true;
          return { id, event: kept as InboundEvent, attempts, parkedAt: now().toISOString(), reason };
        },
        keepParkedMs,
      );
      return { turn: turn ?? { id, event: kept as InboundEvent, attempts, parkedAt: now().toISOString(), reason }, isNew };
    },
    async list() {
      const turns = (await namespace.entries()).map(([, turn]) => turn);
      return turns.sort((left, right) => left.parkedAt.localeCompare(right.parkedAt) || left.id.localeCompare(right.id));
    },
    get: (id) => namespace.get(id),
    async remove(id) {
      const turn = await namespace.get(id);
      if (!turn) return undefined;
      return (await namespace.delete(id)) ? turn : undefined;
    },
  };
}
