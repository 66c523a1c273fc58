import { describeError, EchoError } from '../errors/echo-error.js';
import type { StoreHealth } from './key-value-namespace.js';

/** Runs store calls with a timeout and keeps the store's health. */
export type StoreGuard = {
  /** Runs one call; a failure or a timeout rejects with a `store-*` EchoError and marks the store degraded. */
  run<T>(what: string, work: () => Promise<T>, timeoutMs?: number): Promise<T>;
  health(): StoreHealth;
};

/** Creates the guard for one store. */
export function createStoreGuard(options: { readonly description: string; readonly operationTimeoutMs: number; readonly onError?: (error: EchoError) => void }): StoreGuard {
  let errors = 0;
  let lastError: string | undefined;
  return {
    async run(what, work, timeoutMs = options.operationTimeoutMs) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new EchoError('store-timeout', `The store (${options.description}) did not answer within ${timeoutMs / 1000} s while ${what}.`)), timeoutMs);
      });
      try {
        const result = await Promise.race([work(), timeout]);
        lastError = undefined;
        return result;
      } catch (error) {
        const failure = error instanceof EchoError ? error : new EchoError('store-write-failed', `The store (${options.description}) failed while ${what}: ${describeError(error)}`, { cause: error });
        errors += 1;
        lastError = failure.message;
        options.onError?.(failure);
        throw failure;
      } finally {
        clearTimeout(timer);
      }
    },
    health: () => (lastError === undefined ? { state: 'ok', errors } : { state: 'degraded', errors, lastError }),
  };
}
