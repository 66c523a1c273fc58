import type { Target } from '../../src/events/target.js';
import { telegramMessageLimit } from './render-telegram-html.js';

/** What a draft needs from the chat: send a plain message (its id back) and edit one. */
export type DraftSurface = {
  send(target: Target, text: string): Promise<number | undefined>;
  edit(target: Target, messageId: number, text: string): Promise<void>;
};

/** Streaming drafts: one message per answer, edited in place while the model writes. */
export interface DraftStreams {
  /** The answer so far; shown at once the first time, then at most one edit per interval. */
  update(target: Target, text: string): void;
  /** Stops the draft of this answer and returns its message id, to be replaced by the final text. */
  finish(target: Target): Promise<number | undefined>;
}

type Draft = {
  messageId?: number;
  latest: string;
  shown: string;
  lastShownAt: number;
  timer?: NodeJS.Timeout;
  chain: Promise<void>;
  finished: boolean;
};

/** Options: the surface, the clock, and the interval per chat (Telegram: 1 s private, 3 s groups). */
export type DraftStreamsOptions = {
  readonly surface: DraftSurface;
  readonly intervalMs?: (chatId: string) => number;
  readonly now?: () => number;
};

/** Group chats have negative ids. */
export function draftIntervalMs(chatId: string): number {
  return chatId.startsWith('-') ? 3000 : 1000;
}

/** Creates the drafts, keyed by the message they answer. */
export function createDraftStreams(options: DraftStreamsOptions): DraftStreams {
  const drafts = new Map<string, Draft>();
  const intervalMs = options.intervalMs ?? draftIntervalMs;
  const now = options.now ?? Date.now;
  const keyOf = (target: Target) => `${target.chatId}:${target.threadId ?? ''}:${target.replyToMessageId ?? ''}`;

  const flush = async (target: Target, draft: Draft) => {
    const text = draft.latest.slice(0, telegramMessageLimit);
    if (draft.finished || text === draft.shown || text.trim() === '') return;
    draft.shown = text;
    draft.lastShownAt = now();
    try {
      if (draft.messageId === undefined) draft.messageId = await options.surface.send(target, text);
      else await options.surface.edit(target, draft.messageId, text);
    } catch {
      // A draft that cannot be shown is only a draft: the final answer is still sent.
    }
  };

  const schedule = (target: Target, draft: Draft) => {
    if (draft.timer || draft.finished) return;
    const wait = Math.max(0, draft.lastShownAt + intervalMs(target.chatId) - now());
    draft.timer = setTimeout(() => {
      draft.timer = undefined;
      draft.chain = draft.chain.then(() => flush(target, draft)).then(() => {
        if (!draft.finished && draft.latest.slice(0, telegramMessageLimit) !== draft.shown) schedule(target, draft);
      });
    }, wait);
    draft.timer.unref();
  };

  return {
    update(target, text) {
      const key = keyOf(target);
      let draft = drafts.get(key);
      if (!draft) {
        draft = { latest: text, shown: '', lastShownAt: 0, chain: Promise.resolve(), finished: false };
        drafts.set(key, draft);
      }
      draft.latest = text;
      schedule(target, draft);
    },
    async finish(target) {
      const key = keyOf(target);
      const draft = drafts.get(key);
      if (!draft) return undefined;
      drafts.delete(key);
      draft.finished = true;
      clearTimeout(draft.timer);
      await draft.chain;
      return draft.messageId;
    },
  };
}
