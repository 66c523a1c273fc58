import pg from 'pg';
import type { Logger } from '../logging/create-logger.js';
import type { Leadership, LeadershipPort } from './leadership.js';

/** How the leadership locks are held. */
export type AdvisoryLeadershipOptions = {
  readonly url: string;
  /** How often a follower tries to win a name, and a leader checks its connection; default 5000. */
  readonly checkEveryMs?: number;
  readonly logger: Logger;
};

/**
 * Leadership over PostgreSQL session advisory locks, each on a connection of its own: the lock lives
 * exactly as long as that connection. A process that dies (even by SIGKILL) loses its connection and
 * with it the lock, so a follower wins the name at its next try. A leader whose connection fails (or
 * whose check query does) gives the role up at once, before another can win it: the database released
 * the lock with the connection.
 */
export function createAdvisoryLeadership(options: AdvisoryLeadershipOptions): LeadershipPort {
  const checkEveryMs = options.checkEveryMs ?? 5000;
  const held = new Set<string>();

  function lead(name: string, handlers: Parameters<LeadershipPort['lead']>[1]): Leadership {
    const logger = options.logger.child({ leadership: name });
    let client: pg.Client | undefined;
    let leader = false;
    let stopped = false;
    let busy = false;

    async function lose(reason: string): Promise<void> {
      const dropped = client;
      client = undefined;
      void dropped?.end().catch(() => undefined);
      if (!leader) return;
      leader = false;
      held.delete(name);
      logger.warn({ reason }, 'leadership lost');
      await Promise.resolve(handlers.onLost()).catch((error: unknown) => logger.error({ err: error }, 'stopping the leader work failed'));
    }

    async function attempt(): Promise<void> {
      if (busy || stopped) return;
      busy = true;
      try {
        if (!client) {
          const next = new pg.Client({ connectionString: options.url, connectionTimeoutMillis: checkEveryMs, keepAlive: true });
          // A broken connection means the lock is gone: the role ends now, not at the next check.
          next.on('error', (error) => void lose(error.message));
          next.on('end', () => void (client === next ? lose('connection closed') : undefined));
          client = next;
          await next.connect();
        }
        const current = client;
        if (leader) {
          await current.query('SELECT 1');
          return;
        }
        // The key is namespaced, so it cannot meet the locks pg-boss takes for itself.
        const result = await current.query<{ won: boolean }>('SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS won', [`echo-agent:leader:${name}`]);
        if (result.rows[0]?.won === true && !stopped) {
          leader = true;
          held.add(name);
          logger.info('leadership won');
          await Promise.resolve(handlers.onAcquired()).catch((error: unknown) => logger.error({ err: error }, 'starting the leader work failed'));
        }
      } catch (error) {
        await lose(error instanceof Error ? error.message : String(error));
      } finally {
        busy = false;
      }
    }

    const timer = setInterval(() => void attempt(), checkEveryMs);
    timer.unref();
    void attempt();
    return {
      name,
      isLeader: () => leader,
      async stop() {
        stopped = true;
        clearInterval(timer);
        const wasLeader = leader;
        leader = false;
        held.delete(name);
        if (wasLeader) await Promise.resolve(handlers.onLost()).catch(() => undefined);
        const closing = client;
        client = undefined;
        // Closing the connection releases the lock: a follower wins at its next try.
        await closing?.end().catch(() => undefined);
      },
    };
  }

  return { lead, held: () => [...held] };
}
