import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { BroadcastCancel, CancelBroadcast } from '../events/cancel-broadcast.js';
import type { Logger } from '../logging/create-logger.js';
import type { PostgresListener } from './create-postgres-listener.js';

/** The PostgreSQL channel every instance listens on for cancels. */
const cancelChannel = 'echo_agent_turn_cancels';

/** A notification's payload, checked as it arrives: anyone who can connect to the database can notify. */
const payloadSchema = z.object({
  from: z.string().max(64),
  sessionKey: z.string().min(1).max(1000),
  by: z.string().max(200),
  at: z.number().finite(),
});

/**
 * Cancels through LISTEN/NOTIFY on the shared database, over the instance's one cluster listener: a publish is one
 * `pg_notify`. A notification reaches every instance listening at that moment (none is stored): an instance that is
 * down runs no turn to abort, and the turns it left are taken over from the queue, where the cancelled session's
 * suspended turns were already closed in the shared store.
 */
export function createPostgresCancelBroadcast(options: { readonly listener: PostgresListener; readonly logger: Logger }): CancelBroadcast {
  const { listener, logger } = options;
  const self = randomUUID();
  const handlers: ((cancel: BroadcastCancel) => void)[] = [];
  let subscribed = false;

  const receive = (payload: string | undefined) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(payload ?? '');
    } catch {
      parsed = undefined;
    }
    const checked = payloadSchema.safeParse(parsed);
    if (!checked.success) {
      logger.warn({ channel: cancelChannel }, 'a cancel notification that is not one of ours was ignored');
      return;
    }
    const { from, ...cancel } = checked.data;
    if (from === self) return;
    for (const handler of handlers) handler(cancel);
  };

  return {
    async publish(cancel) {
      if (!(await listener.notify(cancelChannel, JSON.stringify({ from: self, ...cancel })))) {
        logger.warn({ sessionKey: cancel.sessionKey }, 'the cancel did not reach the other instances: no connection to PostgreSQL');
      }
    },
    subscribe(handler) {
      handlers.push(handler);
      if (subscribed) return;
      subscribed = true;
      listener.listen(cancelChannel, receive);
    },
    async close() {
      // The listener is the cluster's; it closes with it. Cancels heard from now on reach no one.
      handlers.length = 0;
    },
  };
}
