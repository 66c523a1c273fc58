import { createServer } from 'node:net';
import { TelegramServer } from 'telegram-test-api/lib/telegramServer.js';
import { holdLongPolls } from './hold-long-polls.js';

/** A bot message as the emulator stores it: the payload the bot sent, with later edits merged in. */
export type EmulatedBotMessage = {
  readonly messageId: number;
  readonly chatId: string;
  readonly text: string;
  readonly parseMode?: string;
  readonly replyTo?: number;
  readonly keyboard?: readonly (readonly { readonly text: string; readonly callback_data: string }[])[];
};

/** A person's client of the emulator: sends messages and button presses as that person. */
export type EmulatorClient = ReturnType<TelegramServer['getClient']>;

/** A running telegram-test-api emulator on a free port. */
export type TelegramEmulator = {
  readonly server: TelegramServer;
  /** The Bot API root to give the bot (TELEGRAM_API_ROOT). */
  readonly apiRoot: string;
  /** Messages the bot with this token sent, oldest first, with edits applied. */
  botMessages(token: string, chatId?: number): EmulatedBotMessage[];
  /** A person writing to the bot with this token in their private chat (chat id = user id, name `user<id>`). */
  privateChatClient(token: string, userId: number): EmulatorClient;
  stop(): Promise<void>;
};

/** A free TCP port on 127.0.0.1 (the emulator takes port 0 as "unset"). */
export async function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Starts the emulator. With `longPolling`, a `getUpdates` with a `timeout` waits for an update as the Bot API does
 * (test/fakes/hold-long-polls.ts); without it, as telegram-test-api does, it answers at once, and a bot sleeps
 * between empty polls.
 */
export async function startTelegramEmulator(options: { readonly longPolling?: boolean } = {}): Promise<TelegramEmulator> {
  const port = await findFreePort();
  const server = new TelegramServer({ port, host: '127.0.0.1', storeTimeout: 600 });
  await server.start();
  const longPolls = options.longPolling === true ? holdLongPolls(server) : undefined;
  return {
    server,
    apiRoot: server.config.apiURL,
    botMessages(token, chatId) {
      return server.storage.botMessages
        .filter((stored) => stored.botToken === token && (chatId === undefined || String(stored.message.chat_id) === String(chatId)))
        .map((stored) => {
          const message = stored.message as unknown as Record<string, unknown>;
          const markup = message.reply_markup as { inline_keyboard?: EmulatedBotMessage['keyboard'] } | undefined;
          return {
            messageId: stored.messageId,
            chatId: String(message.chat_id),
            text: String(message.text ?? ''),
            ...(typeof message.parse_mode === 'string' ? { parseMode: message.parse_mode } : {}),
            ...(message.reply_to_message_id === undefined ? {} : { replyTo: Number(message.reply_to_message_id) }),
            ...(markup?.inline_keyboard ? { keyboard: markup.inline_keyboard } : {}),
          };
        });
    },
    privateChatClient(token, userId) {
      return server.getClient(token, { userId, chatId: userId, type: 'private', userName: `user${userId}`, firstName: `User ${userId}` });
    },
    stop: async () => {
      longPolls?.release();
      await server.stop();
    },
  };
}
