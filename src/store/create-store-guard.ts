import { describeError, EchoError } from '../errors/echo-error.js';
import type { StoreHealth } from './key-value-namespace.js';

/** Runs store calls with a timeout and keeps the store's health. */
export type StoreGuard = {
  /** Runs one call; a failure or a timeout rejects with a `store-*` EchoError and marks the store degraded. */
  run<T>(what: string, work: () => Promise<T>, timeoutMs?: number): Promise<T>;
  health(): StoreHealth;
  /** Stops the watchdog (when the store closes). */
  dispose(): void;
};

type Running = { readonly what: string; readonly deadline: number; readonly timeoutMs: number; readonly fail: (error: EchoError) => void };

/** How often calls are checked against their deadline: a timeout fires at most this late. */
const watchEveryMs = 100;

/**
 * Creates the guard for one store. One watchdog timer checks every call in flight against its
 * deadline, instead of a timer per call: store calls are the hottest path of a turn.
 */
export function createStoreGuard(options: { readonly description: string; readonly operationTimeoutMs: number; readonly onError?: (error: EchoError) => void }): StoreGuard {
  let errors = 0;
  let lastError: string | undefined;
  const running = new Set<Running>();
  let watchdog: NodeJS.Timeout | undefined;

  const record = (failure: EchoError) => {
    errors += 1;
    lastError = failure.message;
    options.onError?.(failure);
  };

  function watch(): void {
    if (watchdog) return;
    watchdog = setInterval(() => {
      const now = Date.now();
      for (const call of running) {
        if (call.deadline > now) continue;
        running.delete(call);
        call.fail(new EchoError('store-timeout', `The store (${options.description}) did not answer within ${call.timeoutMs / 1000} s while ${call.what}.`));
      }
      if (running.size === 0) {
        clearInterval(watchdog);
        watchdog = undefined;
      }
    }, watchEveryMs);
    watchdog.unref();
  }

  return {
    run(what, work, timeoutMs = options.operationTimeoutMs) {
      return new Promise((resolve, reject) => {
        let settled = false;
        const fail = (failure: EchoError) => {
          if (settled) return;
          settled = true;
          record(failure);
          reject(failure);
        };
        const call: Running = { what, deadline: Date.now() + timeoutMs, timeoutMs, fail };
        running.add(call);
        watch();
        work().then(
          (value) => {
            running.delete(call);
            if (settled) return;
            settled = true;
            lastError = undefined;
            resolve(value);
          },
          (error: unknown) => {
            running.delete(call);
            fail(error instanceof EchoError ? error : new EchoError('store-write-failed', `The store (${options.description}) failed while ${what}: ${describeError(error)}`, { cause: error }));
          },
        );
      });
    },
    health: () => (lastError === undefined ? { state: 'ok', errors } : { state: 'degraded', errors, lastError }),
    dispose() {
      clearInterval(watchdog);
      watchdog = undefined;
    },
  };
}
