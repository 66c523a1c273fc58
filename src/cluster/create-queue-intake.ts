import type { DurableIntake } from '../journal/create-durable-intake.js';
import type { QueueBus } from './create-queue-bus.js';

/**
 * The intake of cluster mode: the queue is the journal. An accepted event is a job in PostgreSQL
 * before the channel acknowledges it; a job whose turn failed or whose instance died runs again by
 * pg-boss's retries and heartbeats, on any instance, so there is nothing to complete, release or
 * re-drive here except jobs that failed for good (they would block their conversation).
 */
export function createQueueIntake(bus: QueueBus): DurableIntake {
  return {
    accept: (event) => bus.publish(event),
    complete: () => undefined,
    flush: async () => undefined,
    release: () => undefined,
    redrive: async () => {
      await bus.unblockKeys();
      return 0;
    },
  };
}
