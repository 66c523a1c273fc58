import { randomUUID } from 'node:crypto';
import type { KeyValueNamespace } from '../store/key-value-namespace.js';
import type { ScopeResolver } from './create-fact-store.js';
import { type MemoryExchange, exchangeScopeOf } from './memory-exchange.js';
import { type FactScope, type FactSource, factScopeKey } from './memory-fact.js';

/** The archived exchanges of one scope (namespace `memory-exchanges`, key: `factScopeKey`), oldest first. */
export type ExchangeList = { readonly exchanges: readonly MemoryExchange[] };

/** An exchange to archive, before it has an id and its scope. */
export type NewExchange = { readonly sessionKey: string; readonly isGroup: boolean; readonly question: string; readonly answer: string; readonly source: FactSource };

/** Past exchanges by scope: archived after each answered message, read at recall, removed by `/forget` and `--delete`. */
export interface ExchangeArchive {
  /** Archives an exchange (each side cut to the configured length); the oldest of the scope go past its cap. */
  record(exchange: NewExchange): Promise<MemoryExchange>;
  /** The scope's exchanges, oldest first. */
  list(scope: FactScope): Promise<readonly MemoryExchange[]>;
  /** Deletes these exchanges of the scope; resolves to the ids deleted. */
  forget(scope: FactScope, ids: readonly string[]): Promise<readonly string[]>;
  /** Deletes every exchange of the scope; resolves to the ids deleted. */
  clear(scope: FactScope): Promise<readonly string[]>;
  /** Moves every exchange of one person scope into another (identity linking), oldest first, capped; resolves to how many moved. */
  merge(from: FactScope, into: FactScope): Promise<number>;
  /** Every stored scope key and its exchanges (operator export and delete; not for hot paths). */
  all(): Promise<readonly (readonly [string, readonly MemoryExchange[]])[]>;
}

/** What the archive is built from. */
export type ExchangeArchiveOptions = {
  /** Exchanges kept per scope (`memory.exchanges.keepPerScope`); past it the oldest go. */
  readonly keepPerScope: number;
  /** Characters kept of each side of an exchange (`memory.exchanges.maxChars`). */
  readonly maxChars: number;
  readonly createId?: () => string;
  readonly resolveScope?: ScopeResolver;
  /** After a scope's exchanges changed (capped, forgotten, cleared): derived data (vectors) follows. */
  readonly onChange?: (scopeKey: string, kept: readonly MemoryExchange[]) => Promise<void>;
};

const cut = (text: string, maxChars: number) => (text.length <= maxChars ? text : `${text.slice(0, Math.max(0, maxChars - 1))}…`);

/** Creates the archive over its namespace. With `resolveScope`, a linked person's exchanges live in the scope they were linked to. */
export function createExchangeArchive(rows: KeyValueNamespace<ExchangeList>, options: ExchangeArchiveOptions): ExchangeArchive {
  const createId = options.createId ?? (() => randomUUID());
  const resolve = options.resolveScope ?? (async (scope: FactScope) => scope);
  const keyOf = async (scope: FactScope) => factScopeKey(await resolve(scope));
  const changed = async (key: string, list: ExchangeList | undefined) => options.onChange?.(key, list?.exchanges ?? []);
  async function remove(scope: FactScope, wanted: (exchange: MemoryExchange) => boolean): Promise<readonly string[]> {
    let deleted: string[] = [];
    const key = await keyOf(scope);
    const written = await rows.update(key, (current) => {
      const list = current?.exchanges ?? [];
      deleted = list.filter(wanted).map((exchange) => exchange.id);
      if (deleted.length === 0) return current;
      const kept = list.filter((exchange) => !wanted(exchange));
      return kept.length === 0 ? undefined : { exchanges: kept };
    });
    if (deleted.length > 0) await changed(key, written);
    return deleted;
  }
  return {
    async record(exchange) {
      const scope = await resolve(exchangeScopeOf({ channel: exchange.source.channel, chatId: exchange.source.chatId, userId: exchange.source.authorId, isGroup: exchange.isGroup }));
      const created: MemoryExchange = { id: createId(), scope, sessionKey: exchange.sessionKey, question: cut(exchange.question, options.maxChars), answer: cut(exchange.answer, options.maxChars), source: exchange.source };
      const key = factScopeKey(scope);
      let capped = false;
      const written = await rows.update(key, (current) => {
        const list = [...(current?.exchanges ?? []), created];
        capped = list.length > options.keepPerScope;
        return { exchanges: list.slice(Math.max(0, list.length - options.keepPerScope)) };
      });
      if (capped) await changed(key, written);
      return created;
    },
    async list(scope) {
      return (await rows.get(await keyOf(scope)))?.exchanges ?? [];
    },
    async forget(scope, ids) {
      const wanted = new Set(ids);
      return remove(scope, (exchange) => wanted.has(exchange.id));
    },
    async clear(scope) {
      return remove(scope, () => true);
    },
    async merge(from, into) {
      const fromKey = factScopeKey(from);
      const intoKey = factScopeKey(into);
      if (fromKey === intoKey) return 0;
      const moved = (await rows.get(fromKey))?.exchanges ?? [];
      if (moved.length === 0) return 0;
      let capped = false;
      const written = await rows.update(intoKey, (current) => {
        const list = current?.exchanges ?? [];
        const known = new Set(list.map((exchange) => exchange.id));
        const combined = [...list, ...moved.filter((exchange) => !known.has(exchange.id)).map((exchange) => ({ ...exchange, scope: into }))].sort((left, right) => left.source.at.localeCompare(right.source.at));
        capped = combined.length > options.keepPerScope;
        return { exchanges: combined.slice(Math.max(0, combined.length - options.keepPerScope)) };
      });
      // Written into the linked scope first: a crash in between leaves them twice, never nowhere.
      await rows.delete(fromKey);
      await changed(fromKey, undefined);
      if (capped) await changed(intoKey, written);
      return moved.length;
    },
    async all() {
      return (await rows.entries()).map(([key, list]) => [key, list.exchanges] as const);
    },
  };
}
