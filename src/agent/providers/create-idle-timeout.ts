/** An abort signal that fires after `timeoutMs` without progress, or when the caller's signal aborts. */
export type IdleTimeout = {
  readonly signal: AbortSignal;
  /** Restarts the countdown; call it on every received chunk. */
  touch(): void;
  /** True when the countdown, not the caller, aborted the signal. */
  hasTimedOut(): boolean;
  /** Clears the timer and the listener on the caller's signal. */
  dispose(): void;
};

/** Creates an idle timeout linked to the caller's signal, so a stalled stream ends as a timeout. */
export function createIdleTimeout(timeoutMs: number, callerSignal?: AbortSignal): IdleTimeout {
  const controller = new AbortController();
  let timedOut = false;
  let timer: NodeJS.Timeout | undefined;
  const onCallerAbort = () => controller.abort(callerSignal?.reason);
  const start = () => {
    timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error(`no response within ${timeoutMs} ms`));
    }, timeoutMs);
  };
  if (callerSignal?.aborted) controller.abort(callerSignal.reason);
  else callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
  start();
  return {
    signal: controller.signal,
    touch: () => {
      if (controller.signal.aborted) return;
      clearTimeout(timer);
      start();
    },
    hasTimedOut: () => timedOut,
    dispose: () => {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onCallerAbort);
    },
  };
}
