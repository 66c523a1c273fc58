import type { DurableIntake } from '../journal/create-durable-intake.js';
import type { InboundJournal } from '../journal/inbound-journal.js';
import type { Logger } from '../logging/create-logger.js';
import type { QueueBus } from './create-queue-bus.js';

/**
 * The intake of cluster mode: the queue is the journal. An accepted event is a job in PostgreSQL
 * before the channel acknowledges it; a job whose turn failed or whose instance died runs again by
 * pg-boss's retries and heartbeats, on any instance (and is parked by the bus once its retries show
 * too many interrupted starts), so there is nothing to complete or release here. Re-driving unblocks
 * conversations held by jobs that failed for good, and queues the events an operator put back
 * (`npm run parked retry`): those wait in the journal namespace, which cluster mode uses for nothing else.
 */
export function createQueueIntake(bus: QueueBus, options: { readonly journal?: InboundJournal; readonly logger?: Logger } = {}): DurableIntake {
  return {
    accept: (event) => bus.publish(event),
    complete: () => undefined,
    flush: async () => undefined,
    release: () => undefined,
    redrive: async () => {
      await bus.unblockKeys();
      let queued = 0;
      for (const entry of (await options.journal?.unfinished()) ?? []) {
        const published = await bus.publish({ ...entry.event, redelivered: true });
        if (!published.accepted) break;
        // Queued first, then removed: two instances re-driving at once may both queue it; the re-run of an answered event is skipped.
        await options.journal?.complete(entry.event.id);
        queued += 1;
      }
      if (queued > 0) options.logger?.info({ queued }, 'events put back by an operator queued again');
      return queued;
    },
  };
}
