import type { OutboundEvent } from '../../src/events/outbound-event.js';
import type { Logger } from '../../src/logging/create-logger.js';
import type { Store } from '../../src/store/key-value-namespace.js';

/** A run whose request waits on one instance while its turn may run on another (cluster mode). */
export type SharedRun = { readonly owner: string; readonly waiting: boolean; readonly callbackUrl?: string };

/** Output of a turn, carried from the instance that ran it to the one holding the waiting request. */
export type ForwardedOutput =
  | { readonly kind: 'event'; readonly event: OutboundEvent }
  | { readonly kind: 'finished'; readonly status: string; readonly text?: string };

/** The run table shared through the store, and the hand-over of output between instances. */
export interface SharedRuns {
  /** Records that this instance holds the request of `runId` (before its event is queued). */
  registered(runId: string, input: { readonly waiting: boolean; readonly callbackUrl?: string }): Promise<void>;
  /** The request gave up waiting: later output goes to the callback URL. */
  released(runId: string): void;
  /** Hands output of a run this instance does not hold to the instance that holds it; false when nobody waits for it. */
  forward(runId: string, output: ForwardedOutput): Promise<boolean>;
  /** The callback URL the run's request gave, for output nobody waits for. */
  callbackOf(runId: string): Promise<string | undefined>;
  stop(): void;
}

/** What the shared table is built from. */
export type SharedRunsOptions = {
  readonly store: Store;
  readonly instanceId: string;
  /** Applies output forwarded to a run this instance holds. */
  readonly apply: (runId: string, output: ForwardedOutput) => void;
  /** Whether this instance still holds the run (its request has not been answered and freed). */
  readonly holds: (runId: string) => boolean;
  readonly logger: Logger;
  /** How often held runs look for forwarded output; default 150 ms (only while a request waits). */
  readonly pollEveryMs?: number;
  /** How long a run's records live; default one hour. */
  readonly keepMs?: number;
};

/**
 * Cluster mode for `?wait=true`: the instance that accepted the request writes the run into the store;
 * the instance whose worker runs the turn finds it there and appends the turn's output to the run's
 * outbox row; the holding instance polls that row (only while one of its requests waits) and settles
 * the waiting request as if the turn had run here.
 */
export function createSharedRuns(options: SharedRunsOptions): SharedRuns {
  const runs = options.store.namespace<SharedRun>('webhook-shared-runs');
  const outputs = options.store.namespace<ForwardedOutput[]>('webhook-run-output');
  const keepMs = options.keepMs ?? 60 * 60_000;
  const held = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let polling = false;

  async function poll(): Promise<void> {
    if (polling) return;
    polling = true;
    try {
      for (const runId of [...held]) {
        if (!options.holds(runId)) {
          held.delete(runId);
          continue;
        }
        let taken: ForwardedOutput[] = [];
        await outputs.update(runId, (current) => {
          taken = current ?? [];
          return undefined;
        });
        for (const output of taken) options.apply(runId, output);
      }
    } catch (error) {
      options.logger.warn({ err: error }, 'could not read output forwarded by another instance; trying again');
    } finally {
      polling = false;
      if (held.size === 0) {
        clearInterval(timer);
        timer = undefined;
      }
    }
  }

  return {
    async registered(runId, input) {
      await runs.set(runId, { owner: options.instanceId, waiting: input.waiting, ...(input.callbackUrl === undefined ? {} : { callbackUrl: input.callbackUrl }) }, keepMs);
      if (!input.waiting) return;
      held.add(runId);
      timer ??= setInterval(() => void poll(), options.pollEveryMs ?? 150);
    },
    released(runId) {
      held.delete(runId);
      void runs.update(runId, (current) => (current ? { ...current, waiting: false } : current)).catch(() => undefined);
    },
    async forward(runId, output) {
      const run = await runs.get(runId);
      if (!run?.waiting || run.owner === options.instanceId) return false;
      await outputs.update(runId, (current) => [...(current ?? []), output], keepMs);
      return true;
    },
    callbackOf: async (runId) => (await runs.get(runId))?.callbackUrl,
    stop() {
      clearInterval(timer);
      timer = undefined;
      held.clear();
    },
  };
}
