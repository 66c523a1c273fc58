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

type Waiter = { readonly expected: string; readonly resolve: () => void };

/**
 * Creates the load generator for one bot. Answers are seen the moment the bot's sendMessage reaches
 * the emulator (its in-process `AddedBotMessage` event), so the client never polls. A chat may wait
 * for several answers at once: an answer goes to the waiter whose text it contains (the longest, so
 * `m1` never takes the answer to `m10`).
 */
export function createTelegramLoad(emulator: TelegramEmulator, token: string): TelegramLoad {
  const waiting = new Map<string, Waiter[]>();
  const onBotMessage = () => {
    const stored = emulator.server.storage.botMessages.at(-1);
    if (!stored || stored.botToken !== token) return;
    const message = stored.message as unknown as { chat_id?: unknown; text?: unknown };
    const chatId = String(message.chat_id);
    const text = String(message.text ?? '');
    const waiters = waiting.get(chatId) ?? [];
    const matched = waiters.filter((waiter) => text.includes(waiter.expected)).sort((left, right) => right.expected.length - left.expected.length)[0];
    if (!matched) return;
    forget(chatId, matched);
    matched.resolve();
  };
  const forget = (chatId: string, waiter: Waiter) => {
    const left = (waiting.get(chatId) ?? []).filter((candidate) => candidate !== waiter);
    if (left.length === 0) waiting.delete(chatId);
    else waiting.set(chatId, left);
  };
  emulator.server.on('AddedBotMessage', onBotMessage);

  return {
    async roundTrip(userId, text) {
      const chatId = String(userId);
      const client = emulator.privateChatClient(token, userId);
      let timer: NodeJS.Timeout | undefined;
      const answered = new Promise<void>((resolve, reject) => {
        const waiter: Waiter = { expected: text, resolve };
        waiting.set(chatId, [...(waiting.get(chatId) ?? []), waiter]);
        timer = setTimeout(() => {
          forget(chatId, waiter);
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
  return summarisePhase(latencies, performance.now() - started);
}

/** Every sender sends all `messagesEach` messages at once, without waiting for answers; done when the last is answered. */
export async function runBurst(load: TelegramLoad, options: { readonly userIds: readonly number[]; readonly messagesEach: number; readonly label: string }): Promise<PhaseResult> {
  const started = performance.now();
  const latencies = await Promise.all(
    options.userIds.flatMap((userId) => Array.from({ length: options.messagesEach }, (_, index) => load.roundTrip(userId, `${options.label}-u${userId}-m${index}`))),
  );
  return summarisePhase(latencies, performance.now() - started);
}

function summarisePhase(latencies: readonly number[], elapsedMs: number): PhaseResult {
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
