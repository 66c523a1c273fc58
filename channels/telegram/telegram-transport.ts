import type { Logger } from '../../src/logging/create-logger.js';
import { abortableSleep, backoffDelay } from '../../src/retry/backoff-delay.js';
import type { BotApi } from './bot-api.js';
import type { ChatThrottle } from './chat-throttle.js';
import { classifyTelegramFailure, type TelegramFailure } from './classify-telegram-failure.js';

/**
 * How a call may be retried.
 * - `idempotent`: repeating it cannot show anything twice (edits, answerCallbackQuery, getMe): retry
 *   429, network errors and 5xx.
 * - `visible`: it creates a message (sendMessage): retry 429 and errors where the request never left;
 *   never after an ambiguous failure, which could duplicate the message.
 * - `none`: one attempt (typing, getUpdates whose loop retries itself).
 */
export type RetryPolicy = 'idempotent' | 'visible' | 'none';

/** The result of a call: Telegram's `result`, or why it failed and whether trying later could help. */
export type CallResult<T = unknown> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly failure: TelegramFailure; readonly error: string; readonly retryable: boolean };

/** Options of one call. */
export type CallOptions = {
  readonly policy: RetryPolicy;
  /** Throttled per chat when set. */
  readonly chatId?: string;
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
};

/** Bot API calls with Telegram's rate limits respected and failures as values. */
export interface TelegramTransport {
  call<T = unknown>(method: string, payload: Readonly<Record<string, unknown>>, options: CallOptions): Promise<CallResult<T>>;
}

/** What the transport is built from. */
export type TransportOptions = {
  readonly api: BotApi;
  readonly throttle: ChatThrottle;
  readonly logger: Logger;
  /** The token, scrubbed from any error text that might carry it. */
  readonly token: string;
  readonly maxAttempts?: number;
  /** Ceiling of the first backoff after a network error or 5xx; doubles each time, up to 15 s (full jitter). */
  readonly retryBaseMs?: number;
  /** The longest 429 wait honoured before giving up; default 120 s. */
  readonly maxRetryAfterSeconds?: number;
  readonly defaultTimeoutMs?: number;
  readonly sleep?: (milliseconds: number, signal?: AbortSignal) => Promise<void>;
};

/** Creates the transport. */
export function createTelegramTransport(options: TransportOptions): TelegramTransport {
  const maxAttempts = options.maxAttempts ?? 4;
  const retryBaseMs = options.retryBaseMs ?? 500;
  const maxRetryAfter = options.maxRetryAfterSeconds ?? 120;
  const sleep = options.sleep ?? abortableSleep;
  const redact = (text: string) => (options.token === '' ? text : text.split(options.token).join('***'));

  return {
    async call<T>(method: string, payload: Readonly<Record<string, unknown>>, callOptions: CallOptions): Promise<CallResult<T>> {
      let last: { failure: TelegramFailure; error: string } | undefined;
      for (let attempt = 1; attempt <= maxAttempts; attempt += 1) {
        if (callOptions.signal?.aborted) break;
        if (callOptions.chatId !== undefined) await options.throttle.acquire(callOptions.chatId);
        const timeout = AbortSignal.timeout(callOptions.timeoutMs ?? options.defaultTimeoutMs ?? 30_000);
        const signal = callOptions.signal ? AbortSignal.any([callOptions.signal, timeout]) : timeout;
        try {
          return { ok: true, value: (await options.api.call(method, payload, signal)) as T };
        } catch (error) {
          let failure = classifyTelegramFailure(error);
          // Our own timeout fired: the request may have been done, like any broken connection.
          if (failure.kind === 'aborted' && timeout.aborted && !callOptions.signal?.aborted) failure = { kind: 'network-ambiguous', description: `no answer in time (${failure.description})` };
          last = { failure, error: redact(`Telegram ${method} failed: ${failure.description}`) };
          const delay = retryDelay(failure, attempt, callOptions.policy);
          if (delay === undefined || attempt === maxAttempts) break;
          if (failure.kind === 'rate-limited') {
            if (failure.retryAfterSeconds > maxRetryAfter) break;
            options.logger.warn({ method, retryAfterSeconds: failure.retryAfterSeconds, attempt }, 'Telegram rate limit (429): waiting retry_after before trying again');
          } else {
            options.logger.debug({ method, attempt, delayMs: delay, failure: failure.kind, error: last.error }, 'Telegram call failed; retrying');
          }
          await sleep(delay, callOptions.signal);
        }
      }
      const failure = last?.failure ?? { kind: 'aborted', description: 'aborted before the call' };
      return { ok: false, failure, error: last?.error ?? `Telegram ${method} was not sent: stopped`, retryable: isRetryableLater(failure) && !(callOptions.policy === 'visible' && failure.kind === 'server') };
    },
  };

  function retryDelay(failure: TelegramFailure, attempt: number, policy: RetryPolicy): number | undefined {
    if (policy === 'none') return undefined;
    const backoff = backoffDelay(attempt - 1, { baseMs: retryBaseMs, maxMs: 15_000 });
    switch (failure.kind) {
      case 'rate-limited':
        return failure.retryAfterSeconds * 1000;
      case 'network-unsent':
        return backoff;
      case 'server':
      case 'network-ambiguous':
        return policy === 'idempotent' ? backoff : undefined;
      case 'refused':
      case 'aborted':
        return undefined;
    }
  }
}

/** Whether a failed call could succeed if tried again later (a 5xx on a send may have been delivered: the caller decides). Pure. */
export function isRetryableLater(failure: TelegramFailure): boolean {
  return failure.kind === 'rate-limited' || failure.kind === 'network-unsent' || failure.kind === 'server';
}
