import type { KeyValueNamespace } from '../../src/store/key-value-namespace.js';

/** How long a chat's callback URL is remembered after its last message. */
export const chatCallbackTtlMs = 30 * 24 * 60 * 60 * 1000;

/** The callback URL each webhook chat last gave, for output that belongs to no waiting run (resumed turns, schedules). */
export interface ChatCallbacks {
  remember(chatId: string, url: string): Promise<void>;
  find(chatId: string): Promise<string | undefined>;
}

/** Creates the per-chat callback memory over a store namespace. */
export function createChatCallbacks(namespace: KeyValueNamespace<string>): ChatCallbacks {
  return {
    remember: (chatId, url) => namespace.set(chatId, url, chatCallbackTtlMs),
    find: (chatId) => namespace.get(chatId),
  };
}
