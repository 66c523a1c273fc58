import { hostname } from 'node:os';
import pg from 'pg';
import type { Logger } from '../logging/create-logger.js';

/** One instance's LISTEN connection to the shared database, for every channel the cluster listens on. */
export type PostgresListener = {
  /**
   * Listens on `channel` from now on (and again after every reconnection); `handler` gets each notification's payload.
   * Connects on the first call.
   */
  listen(channel: string, handler: (payload: string | undefined) => void): void;
  /** `pg_notify` over the same connection; false when there is no connection or the notify failed (logged). */
  notify(channel: string, payload: string): Promise<boolean>;
  /** Told after every connection, the first and each one after a loss: notifications in between were missed. */
  onConnected(handler: () => void): void;
  close(): Promise<void>;
};

/**
 * Opens the listener lazily: one PostgreSQL connection per instance carries the queue bus's wake-ups and the cancels,
 * instead of one each. A lost connection is made again after `retryEveryMs` (2 s), its channels listened to again,
 * and the `onConnected` handlers told; a connection attempt gives up after 5 s, so a server that does not answer
 * holds no start or stop.
 */
export function createPostgresListener(options: { readonly url: string; readonly logger: Logger; readonly retryEveryMs?: number }): PostgresListener {
  const { logger } = options;
  const channels = new Map<string, Array<(payload: string | undefined) => void>>();
  const connectedHandlers: Array<() => void> = [];
  let client: pg.Client | undefined;
  let connecting: Promise<pg.Client | undefined> | undefined;
  let closed = false;

  const retryLater = () => {
    connecting = undefined;
    if (!closed) setTimeout(() => void connect(), options.retryEveryMs ?? 2000).unref();
  };

  const listenOn = (connection: pg.Client, names: readonly string[]) => connection.query(names.map((name) => `LISTEN ${connection.escapeIdentifier(name)}`).join('; '));

  const connect = (): Promise<pg.Client | undefined> => {
    connecting ??= (async () => {
      const next = new pg.Client({ connectionString: options.url, keepAlive: true, connectionTimeoutMillis: 5000, application_name: `echo-agent listener ${hostname()} ${process.pid}` });
      next.on('error', (error) => {
        logger.warn({ err: error }, 'the cluster listener lost its connection to PostgreSQL; connecting again (the queue is polled meanwhile)');
        if (client === next) client = undefined;
        retryLater();
      });
      next.on('notification', (message) => {
        for (const handler of channels.get(message.channel) ?? []) handler(message.payload);
      });
      let listened: string[] = [];
      try {
        await next.connect();
        listened = [...channels.keys()];
        if (listened.length > 0) await listenOn(next, listened);
      } catch (error) {
        logger.warn({ err: error }, 'no cluster listener: wake-ups and cancels from other instances wait until it connects (the queue is polled meanwhile)');
        await next.end().catch(() => undefined);
        retryLater();
        return undefined;
      }
      if (closed) {
        await next.end().catch(() => undefined);
        return undefined;
      }
      client = next;
      // Channels added while the LISTEN above was on its way.
      const added = [...channels.keys()].filter((name) => !listened.includes(name));
      if (added.length > 0) await listenOn(next, added).catch((error: unknown) => logger.warn({ err: error, channels: added }, 'could not listen on a cluster channel'));
      for (const handler of connectedHandlers) handler();
      return next;
    })();
    return connecting;
  };

  return {
    listen(channel, handler) {
      const handlers = channels.get(channel);
      if (handlers !== undefined) {
        handlers.push(handler);
        return;
      }
      channels.set(channel, [handler]);
      // A connection already made listens on the new channel now; one being made listens on every channel once it is up.
      const connection = client;
      if (connection !== undefined) void listenOn(connection, [channel]).catch((error: unknown) => logger.warn({ err: error, channel }, 'could not listen on a cluster channel'));
      else if (!closed) void connect();
    },
    async notify(channel, payload) {
      if (closed) return false;
      const connection = client ?? (await connect());
      if (connection === undefined) return false;
      try {
        await connection.query('SELECT pg_notify($1, $2)', [channel, payload]);
        return true;
      } catch (error) {
        logger.warn({ err: error, channel }, 'a notification to the other instances was not sent');
        return false;
      }
    },
    onConnected(handler) {
      connectedHandlers.push(handler);
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
