import type { TelegramClient } from 'telegram-test-api/lib/modules/telegramClient.js';
import { telegramHtmlToText } from './telegram-html-to-text.js';
import { sleep } from './wait-until.js';

/** One inline button as a person sees it, with the data pressing it sends. */
export type SeenButton = { readonly label: string; readonly data: string };

/** A bot message as it looks now (edits applied), in plain text. */
export type SeenBotMessage = {
  readonly messageId: number;
  readonly chatId: string;
  readonly text: string;
  /** Button rows; empty when the message has none (or they were removed by an edit). */
  readonly buttons: readonly (readonly SeenButton[])[];
};

/** What changed in the chat: a new bot message, or an edit of one (with how it looked before). */
export type BotMessageChange =
  | { readonly kind: 'new'; readonly message: SeenBotMessage }
  | { readonly kind: 'edit'; readonly message: SeenBotMessage; readonly before: SeenBotMessage };

/** Watches the bot's messages the way a chat app would, through the emulator's client API. */
export type BotMessageWatcher = {
  /** Every bot message seen so far, oldest first, as it looks now. */
  messages(): readonly SeenBotMessage[];
  /** Reads the history once more and reports what changed (the poll loop does this on its own). */
  refresh(): Promise<void>;
  /** The last error reading the history, if the latest read failed. */
  lastError(): string | undefined;
  stop(): Promise<void>;
};

/**
 * Polls `getUpdatesHistory` (the emulator's record of the chat, edits applied) every `intervalMs` and calls
 * `onChange` for each new bot message and each edit, in the order they are seen.
 */
export function watchBotMessages(options: { readonly client: TelegramClient; readonly onChange: (change: BotMessageChange) => void; readonly intervalMs?: number }): BotMessageWatcher {
  const seen = new Map<number, SeenBotMessage>();
  const stopping = new AbortController();
  let lastError: string | undefined;
  let reading: Promise<void> = Promise.resolve();

  async function read(): Promise<void> {
    let history: unknown;
    try {
      history = await options.client.getUpdatesHistory();
      lastError = undefined;
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
      return;
    }
    const current = (Array.isArray(history) ? history : []).map(toSeenBotMessage).filter((message) => message !== undefined);
    current.sort((left, right) => left.messageId - right.messageId);
    for (const message of current) {
      const before = seen.get(message.messageId);
      seen.set(message.messageId, message);
      if (before === undefined) options.onChange({ kind: 'new', message });
      else if (before.text !== message.text || JSON.stringify(before.buttons) !== JSON.stringify(message.buttons)) options.onChange({ kind: 'edit', message, before });
    }
  }

  // One read at a time: an explicit refresh waits for the loop's read in flight, then reads again.
  const refresh = () => {
    reading = reading.catch(() => undefined).then(read);
    return reading;
  };

  const loop = (async () => {
    while (!stopping.signal.aborted) {
      await refresh();
      await sleep(options.intervalMs ?? 100, stopping.signal).catch(() => undefined);
    }
  })();

  return {
    messages: () => [...seen.values()],
    refresh,
    lastError: () => lastError,
    async stop() {
      stopping.abort();
      await loop;
    },
  };
}

function toSeenBotMessage(update: unknown): SeenBotMessage | undefined {
  if (typeof update !== 'object' || update === null) return undefined;
  const { message, messageId } = update as { message?: Record<string, unknown>; messageId?: unknown };
  // Bot messages carry `chat_id` (what the bot sent); the users' own messages carry `chat` and `from`.
  if (message === undefined || message.chat_id === undefined || typeof messageId !== 'number') return undefined;
  const html = String(message.text ?? '');
  return {
    messageId,
    chatId: String(message.chat_id),
    text: message.parse_mode === 'HTML' ? telegramHtmlToText(html) : html,
    buttons: buttonsOf(message.reply_markup),
  };
}

function buttonsOf(markup: unknown): SeenButton[][] {
  let parsed = markup;
  if (typeof markup === 'string') {
    try {
      parsed = JSON.parse(markup);
    } catch {
      return [];
    }
  }
  const rows = (parsed as { inline_keyboard?: unknown } | undefined)?.inline_keyboard;
  if (!Array.isArray(rows)) return [];
  return rows
    .map((row: unknown) =>
      (Array.isArray(row) ? row : []).map((button: { text?: unknown; callback_data?: unknown }) => ({ label: String(button.text ?? ''), data: String(button.callback_data ?? '') })),
    )
    .filter((row) => row.length > 0);
}
