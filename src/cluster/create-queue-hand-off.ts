import type { PgBoss } from 'pg-boss';
import type { Logger } from '../logging/create-logger.js';
import type { HandOff } from './hand-off.js';

/** Hand-offs as pg-boss queues, one per topic (created on first use), retried with backoff when a worker fails. */
export function createQueueHandOff(boss: PgBoss, logger: Logger): HandOff {
  const created = new Map<string, Promise<void>>();
  const ensureQueue = (topic: string) => {
    let queue = created.get(topic);
    if (!queue) {
      queue = boss.createQueue(topic, { retryLimit: 5, retryDelay: 2, retryBackoff: true, retryDelayMax: 60, deleteAfterSeconds: 24 * 60 * 60 });
      // A failed creation is tried again on the next use.
      queue.catch(() => created.delete(topic));
      created.set(topic, queue);
    }
    return queue;
  };
  return {
    async send(topic, payload) {
      try {
        await ensureQueue(topic);
        return (await boss.send(topic, payload)) !== null;
      } catch (error) {
        logger.warn({ err: error, topic }, 'could not hand work to another instance');
        return false;
      }
    },
    async work(topic, handler) {
      await ensureQueue(topic);
      const id = await boss.work<object>(topic, { pollingIntervalSeconds: 0.5 }, async (jobs) => {
        for (const job of jobs) await handler(job.data);
      });
      return () => boss.offWork(topic, { id });
    },
  };
}
