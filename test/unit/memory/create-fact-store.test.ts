import { describe, expect, it } from 'vitest';
import { createFactStore, type FactList, type NewFact } from '../../../src/memory/create-fact-store.js';
import type { FactScope } from '../../../src/memory/memory-fact.js';
import { useScratchStores } from '../../fakes/use-scratch-stores.js';

const alice: FactScope = { kind: 'person', channel: 'telegram', userId: '42' };
const group: FactScope = { kind: 'group', channel: 'telegram', chatId: '-100' };
const source = (messageId: string) => ({ messageId, authorId: '42', authorName: 'Alice', channel: 'telegram', chatId: '42', at: '2026-12-02T08:00:00.000Z' });
const fact = (statement: string, messageId: string, overrides: Partial<NewFact> = {}): NewFact => ({ scope: alice, subject: 'Favourite drink', statement, source: source(messageId), trust: 'allowed-user', ...overrides });

describe('the fact store over a real SQLite store', () => {
  const openStore = useScratchStores('facts');

  async function open() {
    const store = await openStore();
    let next = 0;
    return createFactStore(store.namespace<FactList>('memory-facts'), { now: () => new Date('2026-12-02T09:00:00Z'), createId: () => {
        next += 1;
        return `fact-${next}`;
      },
    });
  }

  it('keeps provenance and trust with each fact', async () => {
    const facts = await open();
    const recorded = await facts.record(fact('Alice likes tea.', 'm1', { trust: 'approver' }));
    expect(recorded).toEqual({ id: 'fact-1', scope: alice, subject: 'favourite drink', statement: 'Alice likes tea.', source: source('m1'), trust: 'approver' });
    expect(await facts.current(alice)).toEqual([recorded]);
  });

  it('a newer fact of the same subject replaces the older for retrieval and keeps it in history', async () => {
    const facts = await open();
    await facts.record(fact('Alice likes tea.', 'm1'));
    await facts.record(fact('Alice has a cat.', 'm2', { subject: 'pet' }));
    await facts.record(fact('Alice now prefers coffee.', 'm3', { subject: '  favourite   DRINK. ' }));
    expect((await facts.current(alice)).map((known) => known.statement)).toEqual(['Alice has a cat.', 'Alice now prefers coffee.']);
    const history = await facts.history(alice);
    expect(history.map((known) => [known.statement, known.replacedBy])).toEqual([
      ['Alice likes tea.', 'fact-3'],
      ['Alice has a cat.', undefined],
      ['Alice now prefers coffee.', undefined],
    ]);
    expect(history[0]?.replacedAt).toBe('2026-12-02T09:00:00.000Z');
  });

  it('records the same fact from the same message once (an extraction run twice)', async () => {
    const facts = await open();
    const first = await facts.record(fact('Alice likes tea.', 'm1'));
    const again = await facts.record(fact('Alice likes tea.', 'm1'));
    expect(again).toEqual(first);
    expect(await facts.history(alice)).toHaveLength(1);
  });

  it('keeps scopes apart: a subject in a group does not replace the same subject of a person', async () => {
    const facts = await open();
    await facts.record(fact('Alice likes tea.', 'm1'));
    await facts.record(fact('The team drinks coffee on Fridays.', 'm2', { scope: group, trust: 'group-member' }));
    expect((await facts.current(alice)).map((known) => known.statement)).toEqual(['Alice likes tea.']);
    expect((await facts.current(group)).map((known) => known.statement)).toEqual(['The team drinks coffee on Fridays.']);
  });
});
