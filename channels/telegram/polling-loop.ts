import type { ChannelStatus } from '../../src/events/channel.js';
import type { Logger } from '../../src/logging/create-logger.js';
import type { KeyValueNamespace } from '../../src/store/key-value-namespace.js';
import type { DispatchOutcome } from './dispatch-update.js';
import { abortableSleep, backoffDelay } from '../../src/retry/backoff-delay.js';
import type { TelegramTransport } from './telegram-transport.js';
import { telegramAllowedUpdates } from './update-schema.js';

/** Tuning of the polling loop; the defaults suit api.telegram.org. */
export type PollingTuning = {
  /** getUpdates `timeout` (long polling), seconds. */
  readonly longPollSeconds?: number;
  /** Pause after an empty answer that came back at once (servers and emulators that never long-poll). */
  readonly idleSleepMs?: number;
  /** A poll with no answer after this long is aborted and started again. */
  readonly stallTimeoutMs?: number;
  /** Ceiling of the first pause after a failed poll; doubles up to 30 s (full jitter). */
  readonly retryBaseMs?: number;
};

/** What the loop is built from. */
export type PollingLoopOptions = PollingTuning & {
  readonly transport: TelegramTransport;
  readonly dispatch: (update: unknown) => Promise<DispatchOutcome>;
  readonly offsets: KeyValueNamespace<number>;
  readonly offsetKey: string;
  readonly logger: Logger;
  readonly onStatus: (status: ChannelStatus) => void;
  /** Runs before each poll until it succeeds (getMe and setup after a failed start). */
  readonly beforePoll?: () => Promise<boolean>;
};

/** A running loop. */
export type PollingLoop = { stop(): Promise<void> };

/**
 * Polls getUpdates until stopped: updates are dispatched one at a time in id order, and the offset is
 * stored only after an update was dispatched (beside the next poll), so a crash re-delivers it (and the dedupe drops it if it
 * had got through). A 409 conflict is reported in one line and retried with backoff; a stalled poll is
 * aborted and restarted.
 */
export function startPollingLoop(options: PollingLoopOptions): PollingLoop {
  const longPollSeconds = options.longPollSeconds ?? 25;
  const idleSleepMs = options.idleSleepMs ?? 100;
  const stallTimeoutMs = options.stallTimeoutMs ?? (longPollSeconds + 15) * 1000;
  const retryBaseMs = options.retryBaseMs ?? 1000;
  const stopping = new AbortController();
  const { logger } = options;

  let offsetWritten: Promise<void> = Promise.resolve();

  async function run(): Promise<void> {
    try {
      await poll();
    } finally {
      await offsetWritten;
    }
  }

  async function poll(): Promise<void> {
    let offset = await options.offsets.get(options.offsetKey);
    let failures = 0;
    let inConflict = false;
    const pause = (milliseconds: number) => abortableSleep(milliseconds, stopping.signal);
    while (!stopping.signal.aborted) {
      if (options.beforePoll && !(await options.beforePoll())) {
        failures += 1;
        await pause(backoff(failures));
        continue;
      }
      const stall = new AbortController();
      const stallTimer = setTimeout(() => stall.abort(), stallTimeoutMs);
      const started = Date.now();
      const result = await options.transport.call<unknown[]>(
        'getUpdates',
        { ...(offset === undefined ? {} : { offset }), timeout: longPollSeconds, allowed_updates: telegramAllowedUpdates },
        { policy: 'none', signal: AbortSignal.any([stopping.signal, stall.signal]), timeoutMs: stallTimeoutMs + 5000 },
      );
      clearTimeout(stallTimer);
      if (stopping.signal.aborted) break;
      if (!result.ok) {
        if (stall.signal.aborted) {
          logger.warn({ stallTimeoutMs }, 'telegram poll stalled (no answer in time); restarting it');
          continue;
        }
        failures += 1;
        const { failure } = result;
        if (failure.kind === 'refused' && failure.status === 409) {
          if (!inConflict) {
            logger.warn('telegram: 409 Conflict — another process is polling this bot token (or a webhook is set). Stop the other instance; retrying with backoff.');
            options.onStatus({ state: 'degraded', detail: 'conflict: another process is polling this bot token' });
          }
          inConflict = true;
        } else if (failures === 1) {
          logger.warn({ error: result.error }, 'telegram polling failed; retrying with backoff');
          options.onStatus({ state: 'degraded', detail: result.error });
        }
        await pause(failure.kind === 'rate-limited' ? failure.retryAfterSeconds * 1000 : backoff(failures));
        continue;
      }
      if (failures > 0) logger.info('telegram polling recovered');
      if (failures > 0 || inConflict) options.onStatus({ state: 'running' });
      failures = 0;
      inConflict = false;
      const updates = (Array.isArray(result.value) ? result.value : []).slice().sort((left, right) => updateIdOf(left) - updateIdOf(right));
      const storedOffset = offset;
      let closed = false;
      let retryLater = false;
      const outcomes = await dispatchByChat(updates);
      for (const update of updates) {
        const outcome = outcomes.get(update);
        if (outcome === 'closed') {
          closed = true;
          break;
        }
        // Not recorded (or left out behind one of its chat that was not), so not acknowledged: the offset stays
        // before it and Telegram sends it again. Later updates that did get through come again too; the dedupe drops them.
        if (outcome === 'retry-later' || outcome === undefined) {
          retryLater = true;
          break;
        }
        const id = updateIdOf(update);
        if (Number.isFinite(id) && (offset === undefined || id + 1 > offset)) offset = id + 1;
      }
      // Stored once per batch, after its updates were dispatched: a crash mid-batch re-delivers the batch,
      // and the persisted dedupe drops the updates that already ran.
      // A failed write (the store refusing writes) must not stop polling: Telegram already has the offset from the
      // next getUpdates, and after a restart the dedupe rows drop what it re-delivers.
      // Not awaited before the next poll, which acknowledges the batch to Telegram anyway: the write goes beside it
      // (one store round trip less between a message and the next poll), after the previous batch's write, and the
      // loop waits for it when it ends.
      if (offset !== storedOffset && offset !== undefined) {
        const reached = offset;
        offsetWritten = offsetWritten.then(() =>
          options.offsets.set(options.offsetKey, reached).catch((error: unknown) => logger.warn({ err: error, offset: reached }, 'telegram offset not stored; polling goes on')),
        );
      }
      if (closed) return;
      if (retryLater) {
        failures += 1;
        await pause(backoff(failures));
        continue;
      }
      if (updates.length === 0 && Date.now() - started < 1000) await pause(idleSleepMs);
    }
  }

  /**
   * Dispatches a batch: the updates of one chat one after another, in id order (a session's messages
   * keep their order), different chats side by side, so one chat's store round trips do not hold up
   * the next chat's. An update is left out (undefined) when an earlier one of its chat was not taken.
   */
  async function dispatchByChat(updates: readonly unknown[]): Promise<ReadonlyMap<unknown, DispatchOutcome>> {
    const chats = new Map<string, unknown[]>();
    for (const update of updates) {
      const chat = chatOf(update);
      chats.set(chat, [...(chats.get(chat) ?? []), update]);
    }
    const outcomes = new Map<unknown, DispatchOutcome>();
    await Promise.all(
      [...chats.values()].map(async (ofChat) => {
        for (const update of ofChat) {
          const outcome = await options.dispatch(update).catch((error: unknown) => {
            // A bug on one update must not block every update behind it: log it and move on.
            logger.error({ err: error, updateId: updateIdOf(update) }, 'telegram update could not be dispatched');
            return 'invalid' as const;
          });
          outcomes.set(update, outcome);
          if (outcome === 'closed' || outcome === 'retry-later') return;
        }
      }),
    );
    return outcomes;
  }

  const backoff = (failures: number) => backoffDelay(failures - 1, { baseMs: retryBaseMs, maxMs: 30_000 });

  const running = run().catch((error: unknown) => {
    logger.error({ err: error }, 'telegram polling loop stopped on an error');
    options.onStatus({ state: 'degraded', detail: 'polling stopped on an error' });
  });

  return {
    async stop() {
      stopping.abort();
      await running;
    },
  };
}

/** The chat an update belongs to (its message's or its button's), for ordering; updates without one share a key. */
function chatOf(update: unknown): string {
  const fields = update as { message?: { chat?: { id?: unknown } }; edited_message?: { chat?: { id?: unknown } }; callback_query?: { message?: { chat?: { id?: unknown } }; from?: { id?: unknown } } } | null;
  const id = fields?.message?.chat?.id ?? fields?.edited_message?.chat?.id ?? fields?.callback_query?.message?.chat?.id ?? fields?.callback_query?.from?.id;
  return id === undefined ? 'no-chat' : String(id);
}

function updateIdOf(update: unknown): number {
  const id = (update as { update_id?: unknown } | null)?.update_id;
  return typeof id === 'number' ? id : Number.NaN;
}
