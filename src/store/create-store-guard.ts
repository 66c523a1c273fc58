import { describeError, EchoError } from '../errors/echo-error.js';
import type { StoreHealth } from './key-value-namespace.js';

/** Runs store calls with a timeout and keeps the store's health. */
export type StoreGuard = {
  /** Runs one call; a failure or a timeout rejects with a `store-*` EchoError and marks the store degraded. */
  run<T>(what: string, work: () => Promise<T>, timeoutMs?: number): Promise<T>;
  /** The same for a call that answers through callbacks (a batcher's `enqueue`): the guard's promise is the call's only one. */
  start<T>(what: string, begin: (resolve: (value: T) => void, reject: (error: unknown) => void) => void, timeoutMs?: number): Promise<T>;
  health(): StoreHealth;
  /** Stops the watchdog (when the store closes). */
  dispose(): void;
};

/** A call in flight: a link in the list of its timeout's calls, oldest first. */
type Running = {
  readonly what: string;
  readonly deadline: number;
  readonly timeoutMs: number;
  readonly fail: (error: EchoError) => void;
  previous: Running | undefined;
  next: Running | undefined;
};

/** The calls in flight with one timeout, in the order they started, which is also the order of their deadlines. */
type RunningList = { first: Running | undefined; last: Running | undefined };

/** How often calls are checked against their deadline: a timeout fires at most this late. */
const watchEveryMs = 100;

/**
 * Creates the guard for one store. One watchdog timer checks the calls in flight against their
 * deadline, instead of a timer per call: store calls are the hottest path of a turn. The calls are
 * kept in a linked list per timeout (a call leaves it in O(1) and leaves nothing behind): a Set of
 * thousands of calls added and deleted under load kept reallocating its table, most of the memory a
 * turn left for the old generation (issue 25). Since deadlines follow the start order within a list,
 * the watchdog looks only at the oldest calls.
 */
export function createStoreGuard(options: { readonly description: string; readonly operationTimeoutMs: number; readonly onError?: (error: EchoError) => void }): StoreGuard {
  let errors = 0;
  let lastError: string | undefined;
  /** Per timeout in ms (the operation timeout, and the health check's): few lists. */
  const lists = new Map<number, RunningList>();
  let inFlight = 0;
  let watchdog: NodeJS.Timeout | undefined;

  const record = (failure: EchoError) => {
    errors += 1;
    lastError = failure.message;
    options.onError?.(failure);
  };

  function add(call: Running): void {
    let list = lists.get(call.timeoutMs);
    if (list === undefined) {
      list = { first: undefined, last: undefined };
      lists.set(call.timeoutMs, list);
    }
    call.previous = list.last;
    if (list.last === undefined) list.first = call;
    else list.last.next = call;
    list.last = call;
    inFlight += 1;
  }

  function remove(call: Running): void {
    const list = lists.get(call.timeoutMs);
    if (list === undefined) return;
    if (call.previous === undefined) list.first = call.next;
    else call.previous.next = call.next;
    if (call.next === undefined) list.last = call.previous;
    else call.next.previous = call.previous;
    call.previous = undefined;
    call.next = undefined;
    inFlight -= 1;
  }

  function watch(): void {
    if (watchdog) return;
    watchdog = setInterval(() => {
      const now = Date.now();
      for (const list of lists.values()) {
        while (list.first !== undefined && list.first.deadline <= now) {
          const call = list.first;
          remove(call);
          call.fail(new EchoError('store-timeout', `The store (${options.description}) did not answer within ${call.timeoutMs / 1000} s while ${call.what}.`));
        }
      }
      if (inFlight === 0) {
        clearInterval(watchdog);
        watchdog = undefined;
      }
    }, watchEveryMs);
    watchdog.unref();
  }

  function start<T>(what: string, begin: (resolve: (value: T) => void, reject: (error: unknown) => void) => void, timeoutMs = options.operationTimeoutMs): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const fail = (failure: EchoError) => {
        if (settled) return;
        settled = true;
        record(failure);
        reject(failure);
      };
      const call: Running = { what, deadline: Date.now() + timeoutMs, timeoutMs, fail, previous: undefined, next: undefined };
      add(call);
      watch();
      const failed = (error: unknown) => {
        if (settled) return;
        remove(call);
        fail(error instanceof EchoError ? error : new EchoError('store-write-failed', `The store (${options.description}) failed while ${what}: ${describeError(error)}`, { cause: error }));
      };
      try {
        begin((value) => {
          if (settled) return;
          remove(call);
          settled = true;
          lastError = undefined;
          resolve(value);
        }, failed);
      } catch (error) {
        failed(error);
      }
    });
  }

  return {
    run: (what, work, timeoutMs) => start(what, (resolve, reject) => void work().then(resolve, reject), timeoutMs),
    start,
    health: () => (lastError === undefined ? { state: 'ok', errors } : { state: 'degraded', errors, lastError }),
    dispose() {
      clearInterval(watchdog);
      watchdog = undefined;
    },
  };
}
