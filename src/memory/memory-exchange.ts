import type { FactScope, FactSource } from './memory-fact.js';

/**
 * One archived exchange: what a person wrote (their own words only: no quoted text, files, tool results or hook
 * payloads) and the agent's final answer to it, in the scope it may be recalled in (the group for a group's
 * exchanges, the person for a private chat's), with where and when it was said.
 */
export type MemoryExchange = {
  readonly id: string;
  readonly scope: FactScope;
  /** The session it was said in: while it is still in that session's history it is not recalled there. */
  readonly sessionKey: string;
  readonly question: string;
  readonly answer: string;
  readonly source: FactSource;
};

/** The text an exchange is indexed and embedded as. Pure. */
export function exchangeText(exchange: Pick<MemoryExchange, 'question' | 'answer'>): string {
  return `${exchange.question}\n${exchange.answer}`;
}

/** The scope an exchange is archived in: a group's own scope, or the person's for a private chat. Pure. */
export function exchangeScopeOf(where: { readonly channel: string; readonly chatId: string; readonly userId: string; readonly isGroup: boolean }): FactScope {
  return where.isGroup ? { kind: 'group', channel: where.channel, chatId: where.chatId } : { kind: 'person', channel: where.channel, userId: where.userId };
}
