import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';

/** The behaviour every store backend must show; run against SQLite, memory, Redis and PostgreSQL. */
export function describeStoreContract(name: string, open: () => Promise<Store>, options: { skip?: string } = {}): void {
  const suite = options.skip ? describe.skip : describe;
  suite(`store contract: ${name}${options.skip ? ` (skipped: ${options.skip})` : ''}`, () => {
    it('keeps values per namespace, and deletes them', async () => {
      const store = await open();
      const unique = `${Date.now()}-${Math.random()}`;
      const sessions = store.namespace<{ n: number }>(`sessions-${unique}`);
      const approvals = store.namespace<{ n: number }>(`approvals-${unique}`);
      await sessions.set('a', { n: 1 });
      await approvals.set('a', { n: 2 });
      expect(await sessions.get('a')).toEqual({ n: 1 });
      expect(await approvals.get('a')).toEqual({ n: 2 });
      expect(await sessions.delete('a')).toBe(true);
      expect(await sessions.get('a')).toBeUndefined();
      expect(await approvals.get('a')).toEqual({ n: 2 });
      await store.close();
    });

    it('answers many concurrent reads and writes each with its own value (also when they go together)', async () => {
      const store = await open();
      const space = store.namespace<{ n: number; text: string }>(`many-${Date.now()}-${Math.random()}`);
      const keys = Array.from({ length: 40 }, (_, index) => `key-${index}`);
      await Promise.all(keys.map((key, index) => space.set(key, { n: index, text: `it's "${key}"` }, index % 2 === 0 ? 60_000 : undefined)));
      const read = await Promise.all([...keys, 'missing'].map((key) => space.get(key)));
      expect(read).toEqual([...keys.map((key, index) => ({ n: index, text: `it's "${key}"` })), undefined]);
      await Promise.all([space.set('same', { n: 1, text: 'first' }), space.set('same', { n: 2, text: 'second' })]);
      expect([1, 2]).toContain((await space.get('same'))?.n);
      await store.close();
    });

    it('expires values after their ttl', async () => {
      const store = await open();
      const space = store.namespace<string>(`ttl-${Date.now()}-${Math.random()}`);
      await space.set('short', 'gone soon', 30);
      await space.set('long', 'stays', 60_000);
      await new Promise((resolve) => setTimeout(resolve, 80));
      expect(await space.get('short')).toBeUndefined();
      expect(await space.get('long')).toBe('stays');
      await store.close();
    });

    it('serialises concurrent updates of one key: no update is lost', async () => {
      const store = await open();
      const space = store.namespace<number>(`counter-${Date.now()}-${Math.random()}`);
      await Promise.all(Array.from({ length: 25 }, () => space.update('count', (current) => (current ?? 0) + 1)));
      expect(await space.get('count')).toBe(25);
      await store.close();
    });

    it('decides a compare-and-set exactly once among racing writers', async () => {
      const store = await open();
      const space = store.namespace<{ status: string; by?: string }>(`cas-${Date.now()}-${Math.random()}`);
      await space.set('approval', { status: 'pending' });
      const winners: string[] = [];
      await Promise.all(
        ['alice', 'bob', 'carol'].map((person) =>
          space.update('approval', (current) => {
            if (current?.status !== 'pending') return current;
            winners.push(person);
            return { status: 'approved', by: person };
          }),
        ),
      );
      expect(winners).toHaveLength(1);
      expect((await space.get('approval'))?.by).toBe(winners[0]);
      await store.close();
    });

    it('stores with setIfAbsent once among racing writers, and again only once the value expired', async () => {
      const store = await open();
      const space = store.namespace<string>(`absent-${Date.now()}-${Math.random()}`);
      const stored = await Promise.all(['alice', 'bob', 'carol'].map((person) => space.setIfAbsent('claim', person, 60_000)));
      expect(stored.filter(Boolean)).toHaveLength(1);
      expect(await space.get('claim')).toBe(['alice', 'bob', 'carol'][stored.indexOf(true)]);
      expect(await space.setIfAbsent('claim', 'dave')).toBe(false);
      await space.set('expiring', 'gone soon', 30);
      await new Promise((resolve) => setTimeout(resolve, 80));
      expect(await space.setIfAbsent('expiring', 'erin')).toBe(true);
      expect(await space.get('expiring')).toBe('erin');
      await store.close();
    });

    it('does not let setIfAbsent slip in between the read and the write of an update', async () => {
      const store = await open();
      const space = store.namespace<string>(`absent-cas-${Date.now()}-${Math.random()}`);
      const [updated, stored] = await Promise.all([space.update('k', (current) => (current === undefined ? 'by update' : `${current} then update`)), space.setIfAbsent('k', 'by setIfAbsent')]);
      expect(await space.get('k')).toBe(stored ? 'by setIfAbsent then update' : 'by update');
      expect(updated).toBe(await space.get('k'));
      await store.close();
    });

    it('adds numbers field by field with no addition lost among concurrent ones, from zero again once expired', async () => {
      const store = await open();
      const space = store.namespace<{ calls: number; cost: number; other?: number }>(`add-${Date.now()}-${Math.random()}`);
      await space.set('counter', { calls: 1, cost: 0.5, other: 7 });
      await Promise.all(Array.from({ length: 20 }, () => space.add('counter', { calls: 1, cost: 0.25 }, 60_000)));
      expect(await space.get('counter')).toEqual({ calls: 21, cost: 5.5, other: 7 });
      expect(await space.add('fresh', { calls: 2, cost: 0.125 })).toEqual({ calls: 2, cost: 0.125 });
      await space.set('expiring', { calls: 40, cost: 1 }, 30);
      await new Promise((resolve) => setTimeout(resolve, 80));
      expect(await space.add('expiring', { calls: 1, cost: 2 })).toEqual({ calls: 1, cost: 2 });
      expect(await space.get('expiring')).toEqual({ calls: 1, cost: 2 });
      await store.close();
    });

    it('answers many concurrent setIfAbsent and add calls of different keys each for its own key', async () => {
      const store = await open();
      const claims = store.namespace<string>(`absent-many-${Date.now()}-${Math.random()}`);
      const counters = store.namespace<{ calls: number }>(`add-many-${Date.now()}-${Math.random()}`);
      const keys = Array.from({ length: 30 }, (_, index) => `key-${index}`);
      await Promise.all(keys.filter((_, index) => index % 3 === 0).map((key) => claims.set(key, 'taken before')));
      await Promise.all(keys.filter((_, index) => index % 2 === 0).map((key) => counters.set(key, { calls: 10 })));
      const [claimed, added] = await Promise.all([Promise.all(keys.map((key) => claims.setIfAbsent(key, `claimed ${key}`, 60_000))), Promise.all(keys.map((key, index) => counters.add(key, { calls: index })))]);
      expect(claimed).toEqual(keys.map((_, index) => index % 3 !== 0));
      expect(await Promise.all(keys.map((key) => claims.get(key)))).toEqual(keys.map((key, index) => (index % 3 === 0 ? 'taken before' : `claimed ${key}`)));
      const expected = keys.map((_, index) => ({ calls: index + (index % 2 === 0 ? 10 : 0) }));
      expect(added).toEqual(expected);
      expect(await Promise.all(keys.map((key) => counters.get(key)))).toEqual(expected);
      await store.close();
    });

    it('runs concurrent updates of different keys each on its own row, and an updater that throws fails only its own', async () => {
      const store = await open();
      const space = store.namespace<number>(`update-many-${Date.now()}-${Math.random()}`);
      const keys = Array.from({ length: 20 }, (_, index) => `key-${index}`);
      await Promise.all(keys.filter((_, index) => index % 2 === 0).map((key, index) => space.set(key, index * 100)));
      const outcomes = await Promise.allSettled(
        keys.map((key, index) =>
          space.update(key, (current) => {
            if (index === 7) throw new Error('the updater of key-7 failed');
            return index % 5 === 4 ? undefined : (current ?? 0) + index;
          }),
        ),
      );
      expect(outcomes.map((outcome) => outcome.status)).toEqual(keys.map((_, index) => (index === 7 ? 'rejected' : 'fulfilled')));
      const expected = keys.map((_, index) => (index === 7 || index % 5 === 4 ? undefined : (index % 2 === 0 ? (index / 2) * 100 : 0) + index));
      expect(await Promise.all(keys.map((key) => space.get(key)))).toEqual(expected);
      await store.close();
    });

    it('deletes a key when the updater returns undefined', async () => {
      const store = await open();
      const space = store.namespace<string>(`del-${Date.now()}-${Math.random()}`);
      await space.set('k', 'v');
      await space.update('k', () => undefined);
      expect(await space.get('k')).toBeUndefined();
      await store.close();
    });

    it('adds amounts to a record of numbers: from nothing, field by field, concurrently without losing one', async () => {
      const store = await open();
      const space = store.namespace<{ calls: number; cost: number; tokens?: number }>(`add-${Date.now()}-${Math.random()}`);
      expect(await space.add('day', { calls: 1, cost: 0.5 }, 60_000)).toEqual({ calls: 1, cost: 0.5 });
      expect(await space.add('day', { calls: 2, tokens: 10 })).toEqual({ calls: 3, cost: 0.5, tokens: 10 });
      await Promise.all(Array.from({ length: 25 }, () => space.add('day', { calls: 1, cost: 1 }, 60_000)));
      expect(await space.get('day')).toEqual({ calls: 28, cost: 25.5, tokens: 10 });
      // An add and an update of one key do not lose each other either.
      await Promise.all([space.add('day', { calls: 1 }), space.update('day', (current) => (current ? { ...current, tokens: (current.tokens ?? 0) + 5 } : current)), space.add('day', { calls: 1 })]);
      expect(await space.get('day')).toEqual({ calls: 30, cost: 25.5, tokens: 15 });
      await store.close();
    });

    it('adds to an expired record as to a missing one, and keeps the expiry it had when given no ttl', async () => {
      const store = await open();
      const space = store.namespace<{ calls: number }>(`add-ttl-${Date.now()}-${Math.random()}`);
      await space.add('short', { calls: 5 }, 30);
      await space.add('kept', { calls: 1 }, 60);
      await space.add('kept', { calls: 1 });
      await new Promise((resolve) => setTimeout(resolve, 90));
      expect(await space.get('kept')).toBeUndefined();
      expect(await space.add('short', { calls: 1 }, 60_000)).toEqual({ calls: 1 });
      expect(await space.get('short')).toEqual({ calls: 1 });
      await store.close();
    });

    it('lists the live entries of one namespace only, without expired ones', async () => {
      const store = await open();
      const unique = `${Date.now()}-${Math.random()}`;
      const journal = store.namespace<{ n: number }>(`list_a-${unique}`);
      const other = store.namespace<{ n: number }>(`list_ab-${unique}`);
      await journal.set('one', { n: 1 });
      await journal.set('two', { n: 2 });
      await journal.set('gone', { n: 3 }, 20);
      await other.set('one', { n: 9 });
      await new Promise((resolve) => setTimeout(resolve, 60));
      const listed = [...(await journal.entries())].sort(([left], [right]) => left.localeCompare(right));
      expect(listed).toEqual([
        ['one', { n: 1 }],
        ['two', { n: 2 }],
      ]);
      await store.close();
    });

    it('purges expired rows without reading them, and keeps the rest', async () => {
      const store = await open();
      const space = store.namespace<string>(`purge-${Date.now()}-${Math.random()}`);
      await space.set('short', 'gone soon', 20);
      await space.set('kept', 'stays');
      await new Promise((resolve) => setTimeout(resolve, 60));
      // Other tests share the store (and Redis's database) while this runs, so only the purge's own answer is certain;
      // Redis expires rows itself and purges none. The SQLite tests count rows in a store of their own.
      expect(await store.purgeExpired()).toBeGreaterThanOrEqual(0);
      expect(await space.get('kept')).toBe('stays');
      expect((await space.entries()).map(([key]) => key)).toEqual(['kept']);
      expect(store.health()).toEqual({ state: 'ok', errors: 0 });
      await store.close();
    });
  });
}
