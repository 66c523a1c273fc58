import { randomUUID } from 'node:crypto';
import type { KeyValueNamespace } from '../store/key-value-namespace.js';
import { type FactScope, type FactSource, type FactTrust, factScopeKey, type MemoryFact, normaliseSubject } from './memory-fact.js';

/** The stored facts of one scope (namespace `memory-facts`, key: `factScopeKey`), newest last, replaced ones included. */
export type FactList = { readonly facts: readonly MemoryFact[] };

/** A fact to remember, before it has an id. */
export type NewFact = { readonly scope: FactScope; readonly subject: string; readonly statement: string; readonly source: FactSource; readonly trust: FactTrust };

/** Facts by scope: recorded with contradiction handling, read as they stand now. */
export interface FactStore {
  /** Records a fact; an older current fact of the same subject in the scope is marked replaced. The same fact from the same message twice is recorded once. */
  record(fact: NewFact): Promise<MemoryFact>;
  /** The scope's facts as they stand: replaced ones left out, oldest first. */
  current(scope: FactScope): Promise<readonly MemoryFact[]>;
  /** Every fact of the scope, replaced ones included, oldest first. */
  history(scope: FactScope): Promise<readonly MemoryFact[]>;
  /** Deletes these facts and every older version of their subjects (a forgotten fact leaves no trace in the store); resolves to the ids deleted. */
  forget(scope: FactScope, ids: readonly string[]): Promise<readonly string[]>;
  /** Deletes every fact of the scope; resolves to the ids deleted. */
  clear(scope: FactScope): Promise<readonly string[]>;
  /** Moves every fact of one person scope into another (identity linking): the facts keep their ids and sources, newer subjects replace older ones. */
  merge(from: FactScope, into: FactScope): Promise<number>;
  /** Every stored scope key and its facts (operator export and delete; not for hot paths). */
  all(): Promise<readonly (readonly [string, readonly MemoryFact[]])[]>;
}

/** Maps a person scope to the scope its facts live in (the one it was linked to); other scopes map to themselves. */
export type ScopeResolver = (scope: FactScope) => Promise<FactScope>;

/** Facts kept per scope; past it the oldest replaced ones go first, then the oldest. */
const maxFactsPerScope = 500;

function capped(facts: readonly MemoryFact[]): readonly MemoryFact[] {
  if (facts.length <= maxFactsPerScope) return facts;
  const excess = facts.length - maxFactsPerScope;
  const replaced = new Set(facts.filter((fact) => fact.replacedBy !== undefined).slice(0, excess));
  const kept = facts.filter((fact) => !replaced.has(fact));
  return kept.slice(kept.length - maxFactsPerScope);
}

/** Adds a fact at the end of a list, marking current facts of the same subject replaced by it. Pure. */
function appended(list: readonly MemoryFact[], fact: MemoryFact, replacedAt: string): readonly MemoryFact[] {
  const updated = list.map((known) => (known.subject === fact.subject && known.replacedBy === undefined && fact.replacedBy === undefined ? { ...known, replacedBy: fact.id, replacedAt } : known));
  return [...updated, fact];
}

/** Facts of two lists in the order they were said, each subject's newest one current, the others replaced by it. Pure. */
function newestWins(facts: readonly MemoryFact[], replacedAt: string): readonly MemoryFact[] {
  const ordered = [...facts].sort((left, right) => left.source.at.localeCompare(right.source.at));
  const newest = new Map<string, MemoryFact>();
  for (const fact of ordered) if (fact.replacedBy === undefined) newest.set(fact.subject, fact);
  return ordered.map((fact) => {
    const winner = newest.get(fact.subject);
    return fact.replacedBy === undefined && winner !== undefined && winner !== fact ? { ...fact, replacedBy: winner.id, replacedAt } : fact;
  });
}

/** Creates the fact store over its namespace. With `resolveScope`, a linked person's facts are read and written in the scope they were linked to. */
export function createFactStore(
  facts: KeyValueNamespace<FactList>,
  options: { readonly now: () => Date; readonly createId?: () => string; readonly resolveScope?: ScopeResolver; readonly onChange?: (scopeKey: string, facts: readonly MemoryFact[]) => Promise<void> },
): FactStore {
  const createId = options.createId ?? (() => randomUUID());
  const resolve = options.resolveScope ?? (async (scope: FactScope) => scope);
  const keyOf = async (scope: FactScope) => factScopeKey(await resolve(scope));
  const changed = async (key: string, list: FactList | undefined) => options.onChange?.(key, list?.facts ?? []);
  return {
    async record(fact) {
      const scope = await resolve(fact.scope);
      const subject = normaliseSubject(fact.subject);
      const created: MemoryFact = { id: createId(), ...fact, scope, subject };
      let recorded = created;
      const key = factScopeKey(scope);
      const written = await facts.update(key, (current) => {
        const list = current?.facts ?? [];
        const same = list.find((known) => known.subject === subject && known.statement === fact.statement && known.source.messageId !== undefined && known.source.messageId === fact.source.messageId);
        if (same !== undefined) {
          recorded = same;
          return current;
        }
        recorded = created;
        return { facts: capped(appended(list, created, options.now().toISOString())) };
      });
      // Capping may have dropped old facts: their derived data (vectors) goes with them.
      if (recorded === created) await changed(key, written);
      return recorded;
    },
    async current(scope) {
      return ((await facts.get(await keyOf(scope)))?.facts ?? []).filter((fact) => fact.replacedBy === undefined);
    },
    async history(scope) {
      return (await facts.get(await keyOf(scope)))?.facts ?? [];
    },
    async forget(scope, ids) {
      const wanted = new Set(ids);
      let deleted: string[] = [];
      const key = await keyOf(scope);
      const written = await facts.update(key, (current) => {
        const list = current?.facts ?? [];
        const subjects = new Set(list.filter((fact) => wanted.has(fact.id)).map((fact) => fact.subject));
        deleted = list.filter((fact) => subjects.has(fact.subject)).map((fact) => fact.id);
        if (deleted.length === 0) return current;
        const kept = list.filter((fact) => !subjects.has(fact.subject));
        return kept.length === 0 ? undefined : { facts: kept };
      });
      await changed(key, written);
      return deleted;
    },
    async clear(scope) {
      let deleted: string[] = [];
      const key = await keyOf(scope);
      await facts.update(key, (current) => {
        deleted = (current?.facts ?? []).map((fact) => fact.id);
        return undefined;
      });
      await changed(key, undefined);
      return deleted;
    },
    async merge(from, into) {
      const fromKey = factScopeKey(from);
      const intoKey = factScopeKey(into);
      if (fromKey === intoKey) return 0;
      const moved = (await facts.get(fromKey))?.facts ?? [];
      if (moved.length === 0) return 0;
      const replacedAt = options.now().toISOString();
      const written = await facts.update(intoKey, (current) => {
        const list = current?.facts ?? [];
        const known = new Set(list.map((fact) => fact.id));
        const combined = [...list, ...moved.filter((fact) => !known.has(fact.id)).map((fact) => ({ ...fact, scope: into }))];
        return { facts: capped(newestWins(combined, replacedAt)) };
      });
      // Written into the linked scope first: a crash in between leaves the facts twice, never nowhere.
      await facts.delete(fromKey);
      await changed(fromKey, undefined);
      await changed(intoKey, written);
      return moved.length;
    },
    async all() {
      return (await facts.entries()).map(([key, list]) => [key, list.facts] as const);
    },
  };
}
