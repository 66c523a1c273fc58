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
}

/** Facts kept per scope; past it the oldest replaced ones go first, then the oldest. */
const maxFactsPerScope = 500;

function capped(facts: readonly MemoryFact[]): readonly MemoryFact[] {
  if (facts.length <= maxFactsPerScope) return facts;
  const excess = facts.length - maxFactsPerScope;
  const replaced = new Set(facts.filter((fact) => fact.replacedBy !== undefined).slice(0, excess));
  const kept = facts.filter((fact) => !replaced.has(fact));
  return kept.slice(kept.length - maxFactsPerScope);
}

/** Creates the fact store over its namespace. */
export function createFactStore(facts: KeyValueNamespace<FactList>, options: { readonly now: () => Date; readonly createId?: () => string }): FactStore {
  const createId = options.createId ?? (() => randomUUID());
  return {
    async record(fact) {
      const subject = normaliseSubject(fact.subject);
      const created: MemoryFact = { id: createId(), ...fact, subject };
      let recorded = created;
      await facts.update(factScopeKey(fact.scope), (current) => {
        const list = current?.facts ?? [];
        const same = list.find((known) => known.subject === subject && known.statement === fact.statement && known.source.messageId !== undefined && known.source.messageId === fact.source.messageId);
        if (same !== undefined) {
          recorded = same;
          return current;
        }
        recorded = created;
        const replacedAt = options.now().toISOString();
        const updated = list.map((known) => (known.subject === subject && known.replacedBy === undefined ? { ...known, replacedBy: created.id, replacedAt } : known));
        return { facts: capped([...updated, created]) };
      });
      return recorded;
    },
    async current(scope) {
      return ((await facts.get(factScopeKey(scope)))?.facts ?? []).filter((fact) => fact.replacedBy === undefined);
    },
    async history(scope) {
      return (await facts.get(factScopeKey(scope)))?.facts ?? [];
    },
    async forget(scope, ids) {
      const wanted = new Set(ids);
      let deleted: string[] = [];
      await facts.update(factScopeKey(scope), (current) => {
        const list = current?.facts ?? [];
        const subjects = new Set(list.filter((fact) => wanted.has(fact.id)).map((fact) => fact.subject));
        deleted = list.filter((fact) => subjects.has(fact.subject)).map((fact) => fact.id);
        if (deleted.length === 0) return current;
        const kept = list.filter((fact) => !subjects.has(fact.subject));
        return kept.length === 0 ? undefined : { facts: kept };
      });
      return deleted;
    },
  };
}
