import type { MessageBus } from '../bus/message-bus.js';
import { createId } from '../events/create-id.js';
import type { Origin } from '../events/inbound-event.js';
import type { Target } from '../events/target.js';
import type { Logger } from '../logging/create-logger.js';

/** What a resumption needs to be queued in its session's lane. */
export type ResumeRequest = {
  readonly suspensionId: string;
  readonly sessionKey: string;
  readonly target: Target;
  readonly traceId: string;
  readonly origin: Origin;
  readonly unattended: boolean;
};

/** Queues `turn-resumed` events, at most one per suspension at a time in this process. */
export interface ResumeRequests {
  /** Queues a resumption unless one is queued or running; false when the bus refused (a sweep tries again). */
  request(request: ResumeRequest): Promise<boolean>;
  /** The resumption of this suspension ended (done, or failed and left for the sweep). */
  settled(suspensionId: string): void;
  isQueued(suspensionId: string): boolean;
}

/** Creates the resumption queue over the bus. */
export function createResumeRequests(options: { readonly bus: MessageBus; readonly logger: Logger; readonly now: () => Date }): ResumeRequests {
  const queued = new Set<string>();
  return {
    async request(request) {
      if (queued.has(request.suspensionId)) return true;
      // Marked before the await: a second request for the same suspension meanwhile must not queue it again.
      queued.add(request.suspensionId);
      const published = await options.bus.publish({
        type: 'turn-resumed',
        id: createId(),
        traceId: request.traceId,
        at: options.now().toISOString(),
        channel: request.target.channel,
        chatId: request.target.chatId,
        sessionKey: request.sessionKey,
        origin: request.origin,
        unattended: request.unattended,
        suspensionId: request.suspensionId,
      });
      if (!published.accepted) {
        queued.delete(request.suspensionId);
        // Never dropped: the suspended turn stays in the store, and the next sweep queues it again.
        options.logger.warn({ suspensionId: request.suspensionId, reason: published.reason }, 'resumed turn not queued yet; the next sweep queues it again');
        return false;
      }
      return true;
    },
    settled(suspensionId) {
      queued.delete(suspensionId);
    },
    isQueued: (suspensionId) => queued.has(suspensionId),
  };
}
