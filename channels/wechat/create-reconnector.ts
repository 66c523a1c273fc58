import { describeError } from '../../src/errors/echo-error.js';
import type { Logger } from '../../src/logging/create-logger.js';
import { backoffDelay } from '../../src/retry/backoff-delay.js';

/** How the channel gets back after a logout or a failed start. */
export type ReconnectorOptions = {
  /** Stops and starts the bot again. */
  readonly restart: () => Promise<void>;
  /** False when a restart would not help: logged in, stopped on purpose, or a QR code waits for a person. */
  readonly needsRestart: () => boolean;
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
  readonly logger: Logger;
  readonly random?: () => number;
};

/** Restarts with exponential backoff (full jitter) until the bot is logged in again or waits for a scan. */
export interface Reconnector {
  /** Plans the next attempt unless one is planned already. */
  schedule(reason: string): void;
  /** Logged in again: forget the attempts. */
  reset(): void;
  cancel(): void;
  readonly attempts: number;
}

/** Creates the reconnector. */
export function createReconnector(options: ReconnectorOptions): Reconnector {
  const random = options.random ?? Math.random;
  let attempts = 0;
  let timer: NodeJS.Timeout | undefined;

  async function attempt(reason: string): Promise<void> {
    timer = undefined;
    if (!options.needsRestart()) return;
    options.logger.info({ attempt: attempts, reason }, 'WeChat: reconnecting');
    try {
      await options.restart();
    } catch (error) {
      options.logger.warn({ error: describeError(error), attempt: attempts }, 'WeChat: reconnect attempt failed');
    }
    // Check again later: a restart that neither logs in nor shows a QR code is retried, further apart.
    reconnector.schedule(reason);
  }

  const reconnector: Reconnector = {
    schedule(reason) {
      if (timer !== undefined) return;
      const delay = backoffDelay(attempts, { baseMs: options.initialDelayMs, maxMs: options.maxDelayMs, random });
      attempts += 1;
      timer = setTimeout(() => void attempt(reason), delay);
      timer.unref();
    },
    reset() {
      attempts = 0;
      clearTimeout(timer);
      timer = undefined;
    },
    cancel() {
      clearTimeout(timer);
      timer = undefined;
    },
    get attempts() {
      return attempts;
    },
  };
  return reconnector;
}
