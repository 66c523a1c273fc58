import type { TelegramEmulator } from '../fakes/telegram-emulator.js';
import { percentile, sleep } from './bench-statistics.js';

/** Sends user messages through the emulator's client API and times the bot's answers, per bot token. */
export type TelegramLoad = {
  /** One message from `userId` in its private chat; resolves to the milliseconds until the bot's answer arrived. */
  roundTrip(userId: number, text: string): Promise<number>;
  /** Stops listening to the emulator. */
  close(): void;
};

/** What a throughput phase measured. */
export type PhaseResult = { readonly messages: number; readonly elapsedMs: number; readonly messagesPerSecond: number; readonly p50Ms: number; readonly p99Ms: number };

const replyTimeoutMs = 60_000;

/**
 * Creates the load generator for one bot. Answers are seen the moment the bot's sendMessage reaches
 * the emulator (its in-process `AddedBotMessage` event), so the client never polls.
 */
export function createTelegramLoad(emulator: TelegramEmulator, token: string): TelegramLoad {
  const waiting = new Map<string, { readonly expected: string; readonly resolve: () => void }>();
  const onBotMessage = () => {
    const stored = emulator.server.storage.botMessages.at(-1);
    if (!stored || stored.botToken !== token) return;
    const message = stored.message as unknown as { chat_id?: unknown; text?: unknown };
    const chatId = String(message.chat_id);
    const waiter = waiting.get(chatId);
    if (waiter && String(message.text ?? '').includes(waiter.expected)) {
      waiting.delete(chatId);
      waiter.resolve();
    }
  };
  emulator.server.on('AddedBotMessage', onBotMessage);

  return {
    async roundTrip(userId, text) {
      const chatId = String(userId);
      if (waiting.has(chatId)) throw new Error(`chat ${chatId} already waits for an answer`);
      const client = emulator.server.getClient(token, { userId, chatId: userId, type: 'private', userName: `user${userId}`, firstName: `User ${userId}` });
      let timer: NodeJS.Timeout | undefined;
      const answered = new Promise<void>((resolve, reject) => {
        waiting.set(chatId, { expected: text, resolve });
        timer = setTimeout(() => {
          waiting.delete(chatId);
          reject(new Error(`no answer to "${text}" in chat ${chatId} within ${replyTimeoutMs} ms`));
        }, replyTimeoutMs);
      });
      const started = performance.now();
      await client.sendMessage(client.makeMessage(text));
      await answered;
      clearTimeout(timer);
      return performance.now() - started;
    },
    close() {
      emulator.server.off('AddedBotMessage', onBotMessage);
    },
  };
}

/** Senders that each send `messagesEach` messages, the next as soon as the previous one is answered, all senders at once. */
export async function runConcurrentSenders(load: TelegramLoad, options: { readonly userIds: readonly number[]; readonly messagesEach: number; readonly label: string }): Promise<PhaseResult> {
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(
    options.userIds.map(async (userId) => {
      for (let index = 0; index < options.messagesEach; index += 1) latencies.push(await load.roundTrip(userId, `${options.label}-u${userId}-m${index}`));
    }),
  );
  const elapsedMs = performance.now() - started;
  return { messages: latencies.length, elapsedMs, messagesPerSecond: (latencies.length / elapsedMs) * 1000, p50Ms: percentile(latencies, 50), p99Ms: percentile(latencies, 99) };
}

/** One person: a message, the answer, a pause to read it, the next message. Resolves to every round trip. */
export async function runSequentialUser(load: TelegramLoad, options: { readonly userId: number; readonly messages: number; readonly pauseMs: number; readonly label: string }): Promise<readonly number[]> {
  const latencies: number[] = [];
  for (let index = 0; index < options.messages; index += 1) {
    if (index > 0) await sleep(options.pauseMs);
    latencies.push(await load.roundTrip(options.userId, `${options.label}-m${index}`));
  }
  return latencies;
}
