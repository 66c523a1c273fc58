import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { z } from 'zod';
import type { BroadcastCancel, CancelBroadcast } from '../events/cancel-broadcast.js';
import type { Logger } from '../logging/create-logger.js';

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
 * Cancels through LISTEN/NOTIFY on the shared database: one connection per instance listens, and a publish is one
 * `pg_notify` on it. A notification reaches every instance listening at that moment (none is stored): an instance
 * that is down runs no turn to abort, and the turns it left are taken over from the queue, where the cancelled
 * session's suspended turns were already closed in the shared store.
 */
export function createPostgresCancelBroadcast(options: { readonly url: string; readonly logger: Logger; readonly retryEveryMs?: number }): CancelBroadcast {
  const { logger } = options;
  const self = randomUUID();
  const handlers: ((cancel: BroadcastCancel) => void)[] = [];
  let client: pg.Client | undefined;
  let connecting: Promise<pg.Client | undefined> | undefined;
  let closed = false;

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

  const retryLater = () => {
    connecting = undefined;
    if (!closed) setTimeout(() => void connect(), options.retryEveryMs ?? 2000).unref();
  };

  const connect = (): Promise<pg.Client | undefined> => {
    connecting ??= (async () => {
      // A server that does not answer must not hold a start or a stop: the connection attempt gives up after 5 s.
      const next = new pg.Client({ connectionString: options.url, keepAlive: true, connectionTimeoutMillis: 5000 });
      next.on('error', (error) => {
        logger.warn({ err: error }, 'the cancel listener lost its connection; connecting again');
        if (client === next) client = undefined;
        retryLater();
      });
      next.on('notification', (message) => {
        if (message.channel === cancelChannel) receive(message.payload);
      });
      try {
        await next.connect();
        await next.query(`LISTEN ${cancelChannel}`);
      } catch (error) {
        logger.warn({ err: error }, 'no cancel listener; cancels from other instances do not reach this one until it connects');
        await next.end().catch(() => undefined);
        retryLater();
        return undefined;
      }
      if (closed) {
        await next.end().catch(() => undefined);
        return undefined;
      }
      client = next;
      return next;
    })();
    return connecting;
  };

  return {
    async publish(cancel) {
      const connection = client ?? (await connect());
      if (connection === undefined) {
        logger.warn({ sessionKey: cancel.sessionKey }, 'the cancel did not reach the other instances: no connection to PostgreSQL');
        return;
      }
      try {
        await connection.query('SELECT pg_notify($1, $2)', [cancelChannel, JSON.stringify({ from: self, ...cancel })]);
      } catch (error) {
        logger.warn({ err: error, sessionKey: cancel.sessionKey }, 'the cancel did not reach the other instances');
      }
    },
    subscribe(handler) {
      handlers.push(handler);
      void connect();
    },
    async close() {
      // A connection still being made ends itself when it is done (it sees `closed`).
      closed = true;
      const connection = client;
      client = undefined;
      await connection?.end().catch(() => undefined);
    },
  };
}
