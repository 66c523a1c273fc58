import type { EmitResult } from '../events/channel.js';
import type { InboundEvent } from '../events/inbound-event.js';
import type { Logger } from '../logging/create-logger.js';
import type { BusStats, EventHandler, MessageBus } from './message-bus.js';

/** Bounds of the in-process bus. */
export type InProcessBusOptions = {
  readonly maxConcurrentTurns: number;
  readonly maxQueued: number;
  readonly maxQueuedPerSession: number;
  readonly logger: Logger;
};

type Lane = { readonly key: string; readonly queue: InboundEvent[]; running: boolean; ready: boolean };

/** The single-process bus: one lane per session key, a global concurrency cap, and a bounded queue. */
export function createInProcessBus(options: InProcessBusOptions): MessageBus {
  const lanes = new Map<string, Lane>();
  const ready: Lane[] = [];
  let handler: EventHandler | undefined;
  let queued = 0;
  let active = 0;
  let closed = false;
  let idleWaiters: Array<() => void> = [];

  function pump(): void {
    while (handler && active < options.maxConcurrentTurns && ready.length > 0) {
      const lane = ready.shift();
      if (!lane) break;
      lane.ready = false;
      const event = lane.queue.shift();
      if (!event) continue;
      queued -= 1;
      lane.running = true;
      active += 1;
      void run(lane, handler, event);
    }
    if (active === 0 && queued === 0) {
      const waiters = idleWaiters;
      idleWaiters = [];
      for (const wake of waiters) wake();
    }
  }

  async function run(lane: Lane, handle: EventHandler, event: InboundEvent): Promise<void> {
    try {
      await handle(event);
    } catch (error) {
      // A failing handler is a bug in one turn; the bus and every other session carry on.
      options.logger.error({ err: error, eventId: event.id, eventType: event.type, sessionKey: event.sessionKey, traceId: event.traceId }, 'event handler failed');
    } finally {
      active -= 1;
      lane.running = false;
      if (lane.queue.length > 0) enqueueLane(lane);
      else lanes.delete(lane.key);
      pump();
    }
  }

  function enqueueLane(lane: Lane): void {
    if (lane.running || lane.ready) return;
    lane.ready = true;
    ready.push(lane);
  }

  function publishNow(event: InboundEvent): EmitResult {
    if (closed) return { accepted: false, reason: 'closed' };
    if (queued >= options.maxQueued) return { accepted: false, reason: 'busy' };
    let lane = lanes.get(event.sessionKey);
    if (lane && lane.queue.length >= options.maxQueuedPerSession) return { accepted: false, reason: 'busy' };
    if (!lane) {
      lane = { key: event.sessionKey, queue: [], running: false, ready: false };
      lanes.set(event.sessionKey, lane);
    }
    lane.queue.push(event);
    queued += 1;
    enqueueLane(lane);
    pump();
    return { accepted: true };
  }

  return {
    publish: async (event) => publishNow(event),
    subscribe(next) {
      handler = next;
      pump();
    },
    async drain(timeoutMs) {
      closed = true;
      if (active === 0 && queued === 0) return { drained: true, abandoned: 0 };
      const idle = new Promise<void>((resolve) => idleWaiters.push(resolve));
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), timeoutMs);
      });
      const outcome = await Promise.race([idle.then(() => 'idle' as const), timeout]);
      clearTimeout(timer);
      return { drained: outcome === 'idle', abandoned: outcome === 'idle' ? 0 : queued + active };
    },
    idle() {
      if (active === 0 && queued === 0) return Promise.resolve();
      return new Promise<void>((resolve) => idleWaiters.push(resolve));
    },
    stats(): BusStats {
      return { queued, active, sessions: lanes.size };
    },
  };
}
