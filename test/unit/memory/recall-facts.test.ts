import { describe, expect, it } from 'vitest';
import { createFactStore, type FactList, type NewFact } from '../../../src/memory/create-fact-store.js';
import type { FactScope } from '../../../src/memory/memory-fact.js';
import { formatRecalledFacts, recallFacts } from '../../../src/memory/recall-facts.js';
import { tokenizeForRecall } from '../../../src/memory/rank-for-recall.js';
import { useScratchStores } from '../../fakes/use-scratch-stores.js';

const person: FactScope = { kind: 'person', channel: 'telegram', userId: '42' };
const privateChat: FactScope = { kind: 'chat', channel: 'telegram', chatId: '42' };
const group: FactScope = { kind: 'group', channel: 'telegram', chatId: '-100' };
const said = (scope: FactScope, subject: string, statement: string, chatId: string): NewFact => ({
  scope,
  subject,
  statement,
  source: { messageId: `${subject}-${chatId}`, authorId: '42', authorName: 'Alice', channel: 'telegram', chatId, at: '2026-12-02T08:00:00.000Z' },
  trust: 'allowed-user',
});
const inPrivate = { channel: 'telegram', chatId: '42', userId: '42', isGroup: false };
const inGroup = { channel: 'telegram', chatId: '-100', userId: '42', isGroup: true };

describe('recalling facts', () => {
  const openStore = useScratchStores('recall');

  async function open() {
    const store = await openStore();
    const facts = createFactStore(store.namespace<FactList>('memory-facts'), { now: () => new Date('2026-12-02T09:00:00Z') });
    await facts.record(said(person, 'medical condition', 'Alice is allergic to penicillin.', '42'));
    await facts.record(said(privateChat, 'side project', 'The side project is called Orca.', '42'));
    await facts.record(said(group, 'release day', 'The team releases on Thursdays.', '-100'));
    await facts.record(said(person, 'editor', 'Alice uses Vim.', '-100'));
    return facts;
  }

  const statements = (facts: readonly { statement: string }[]) => facts.map((fact) => fact.statement).sort();

  it("a group's facts never reach a private chat, and a person's private facts never reach a group", async () => {
    const facts = await open();
    const everything = { query: 'allergic penicillin Orca release Thursdays Vim' };
    expect(statements(await recallFacts(facts, { ...inPrivate, ...everything }, { budgetChars: 10_000 }))).toEqual(['Alice is allergic to penicillin.', 'Alice uses Vim.', 'The side project is called Orca.']);
    // In the group: its own facts and what Alice said there, not what she said in private.
    expect(statements(await recallFacts(facts, { ...inGroup, ...everything }, { budgetChars: 10_000 }))).toEqual(['Alice uses Vim.', 'The team releases on Thursdays.']);
  });

  it('puts the facts that match the message first and stays within the budget', async () => {
    const facts = await open();
    const recalled = await recallFacts(facts, { ...inPrivate, query: 'Which antibiotics am I allergic to?' }, { budgetChars: 40 });
    expect(recalled.map((fact) => fact.statement)).toEqual(['Alice is allergic to penicillin.']);
    const ranked = await recallFacts(facts, { ...inPrivate, query: 'what was the side project called?' }, { budgetChars: 10_000 });
    expect(ranked[0]?.statement).toBe('The side project is called Orca.');
    expect(await recallFacts(facts, { ...inPrivate, query: 'anything' }, { budgetChars: 0 })).toEqual([]);
  });

  it('finds Chinese facts by their characters', async () => {
    const facts = await open();
    await facts.record(said(person, 'home city', '爱丽丝住在上海。', '42'));
    const recalled = await recallFacts(facts, { ...inPrivate, query: '我住在哪里？' }, { budgetChars: 10_000 });
    expect(recalled[0]?.statement).toBe('爱丽丝住在上海。');
    expect(tokenizeForRecall('我住在Shanghai!')).toEqual(['我', '住', '在', 'shanghai']);
  });

  it('formats the facts with who said them, and nothing when there are none', () => {
    expect(formatRecalledFacts([])).toBe('');
    const text = formatRecalledFacts([{ id: '1', scope: person, subject: 'editor', statement: 'Alice uses Vim.', source: { authorId: '42', authorName: 'Alice', channel: 'telegram', chatId: '42', at: '2026-12-02T08:00:00.000Z' }, trust: 'allowed-user' }]);
    expect(text).toContain('- Alice uses Vim. (said by Alice, 2026-12-02)');
  });
});
