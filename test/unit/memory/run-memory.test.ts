import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseArguments } from '../../../src/app/parse-arguments.js';
import { runMemory } from '../../../src/cli/run-memory.js';
import { createSummaryMessage } from '../../../src/memory/compaction-summary.js';
import { createExchangeArchive, type ExchangeList } from '../../../src/memory/create-exchange-archive.js';
import { createFactStore, type FactList } from '../../../src/memory/create-fact-store.js';
import { createIdentityLinks, type IdentityLink } from '../../../src/memory/create-identity-links.js';
import type { StoredSession } from '../../../src/memory/person-memory.js';
import { createStore } from '../../../src/store/create-store.js';

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'echo-run-memory-'));
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

function capture() {
  let text = '';
  return {
    write(chunk: string) {
      text += chunk;
    },
    text: () => text,
  };
}

const at = '2026-12-02T08:00:00.000Z';
const source = (authorId: string, channel: string, chatId: string) => ({ messageId: '1', authorId, authorName: authorId, channel, chatId, at });

/** A store holding Alice (two linked accounts), Bob, a group with a fact from each, and their sessions' summaries. */
async function seed(dataDir: string): Promise<void> {
  const store = await createStore({ dataDir });
  const now = () => new Date(at);
  const identities = createIdentityLinks(store.namespace<IdentityLink>('memory-identities'), { now });
  const facts = createFactStore(store.namespace<FactList>('memory-facts'), { now, resolveScope: (scope) => identities.resolve(scope) });
  await facts.record({ scope: { kind: 'person', channel: 'telegram', userId: '42' }, subject: 'home city', statement: 'Alice lives in Paris.', source: source('42', 'telegram', '42'), trust: 'allowed-user' });
  await facts.record({ scope: { kind: 'person', channel: 'wechat', userId: 'wxid_a' }, subject: 'drink', statement: 'Alice likes tea.', source: source('wxid_a', 'wechat', 'wxid_a'), trust: 'allowed-user' });
  await identities.link({ channel: 'telegram', userId: '42' }, { channel: 'wechat', userId: 'wxid_a' }, facts);
  await facts.record({ scope: { kind: 'person', channel: 'telegram', userId: '7' }, subject: 'home city', statement: 'Bob lives in Rome.', source: source('7', 'telegram', '7'), trust: 'allowed-user' });
  await facts.record({ scope: { kind: 'group', channel: 'telegram', chatId: '-100' }, subject: 'meeting', statement: 'Meetings are on Tuesday.', source: source('42', 'telegram', '-100'), trust: 'group-member' });
  await facts.record({ scope: { kind: 'group', channel: 'telegram', chatId: '-100' }, subject: 'office', statement: 'The office is in Lyon.', source: source('7', 'telegram', '-100'), trust: 'group-member' });
  const everyFact = (await facts.all()).flatMap(([key, list]) => list.map((known) => [key, known.id] as const));
  const vectors = store.namespace<{ model: string; vectors: Record<string, number[]> }>('memory-vectors');
  for (const [key, id] of everyFact) await vectors.update(key, (current) => ({ model: 'm', vectors: { ...(current?.vectors ?? {}), [id]: [1, 0] } }));
  // Archived exchanges: Alice's private one (in her linked scope), hers and Bob's in the group, Bob's private one.
  const exchanges = createExchangeArchive(store.namespace<ExchangeList>('memory-exchanges'), { keepPerScope: 10, maxChars: 600, resolveScope: (scope) => identities.resolve(scope) });
  await exchanges.record({ sessionKey: 'telegram:42', isGroup: false, question: 'the locker code is 5521', answer: 'Noted.', source: source('42', 'telegram', '42') });
  await exchanges.record({ sessionKey: 'telegram:-100', isGroup: true, question: 'the launch word is Zebra', answer: 'Noted.', source: source('42', 'telegram', '-100') });
  await exchanges.record({ sessionKey: 'telegram:-100', isGroup: true, question: 'the canteen opens at noon', answer: 'Noted.', source: source('7', 'telegram', '-100') });
  await exchanges.record({ sessionKey: 'telegram:7', isGroup: false, question: 'my bike is blue', answer: 'Noted.', source: source('7', 'telegram', '7') });
  const sessions = store.namespace<StoredSession & { updatedAt: string }>('sessions');
  await store.namespace('memory-listings').set('telegram|-100|42', { factIds: ['x'] });
  await store.namespace('memory-listings').set('telegram|-100|7', { factIds: ['y'] });
  await sessions.set('telegram:42', { messages: [createSummaryMessage('Alice planned a trip to Kyoto.'), { role: 'user', content: 'hi' }], updatedAt: at });
  await sessions.set('telegram:7', { messages: [createSummaryMessage('Bob asked about trains.')], updatedAt: at });
  await store.close();
}

describe('npm run memory', () => {
  it('--export prints every fact and summary about a person (linked identities included) as JSON, and nothing about others', async () => {
    const dataDir = join(folder, 'data');
    await seed(dataDir);
    const configFile = join(folder, 'config.yaml');
    writeFileSync(configFile, `storage:\n  dataDir: ${dataDir}\n`);
    const output = capture();
    const errors = capture();
    expect(await runMemory(parseArguments(['memory', '--export', 'wechat:wxid_a', '--config', configFile]), output, errors)).toBe(0);
    expect(errors.text()).toBe('');
    const exported = JSON.parse(output.text()) as { personFacts: { statement: string }[]; statedElsewhere: { statement: string }[]; summaries: { sessionKey: string; summary: string }[]; identities: unknown[] };
    expect(exported.personFacts.map((fact) => fact.statement).sort()).toEqual(['Alice likes tea.', 'Alice lives in Paris.']);
    expect(exported.statedElsewhere.map((fact) => fact.statement)).toEqual(['Meetings are on Tuesday.']);
    expect(exported.summaries).toEqual([{ sessionKey: 'telegram:42', summary: 'Alice planned a trip to Kyoto.' }]);
    expect(exported.identities).toHaveLength(2);
    expect((exported as unknown as { exchanges: { question: string }[] }).exchanges.map((exchange) => exchange.question)).toEqual(['the locker code is 5521', 'the launch word is Zebra']);
    expect(output.text()).not.toMatch(/Rome|Lyon|trains|canteen|bike/);
  });

  it('--delete removes them, leaves everyone else\'s, and is audited', async () => {
    const dataDir = join(folder, 'data');
    await seed(dataDir);
    const configFile = join(folder, 'config.yaml');
    writeFileSync(configFile, `storage:\n  dataDir: ${dataDir}\n`);
    const output = capture();
    expect(await runMemory(parseArguments(['memory', '--delete', 'telegram:42', '--config', configFile]), output, capture())).toBe(0);
    expect(output.text()).toBe('Deleted 3 fact(s), 2 exchange(s) and 1 summary(ies) about telegram:42 and its 1 linked identity(ies).\n');
    const store = await createStore({ dataDir });
    const left = JSON.stringify([...(await store.namespace('memory-facts').entries()), ...(await store.namespace('sessions').entries()), ...(await store.namespace('memory-identities').entries()), ...(await store.namespace('memory-exchanges').entries())]);
    // Vectors are left for the facts still there (Bob's, and the group fact Bob stated), none for the deleted ones.
    const factIds = new Set((await store.namespace<{ facts: { id: string }[] }>('memory-facts').entries()).flatMap(([, list]) => list.facts.map((known) => known.id)));
    const vectorIds = (await store.namespace<{ vectors: Record<string, number[]> }>('memory-vectors').entries()).flatMap(([, scope]) => Object.keys(scope.vectors));
    expect(vectorIds.sort()).toEqual([...factIds].sort());
    expect(vectorIds).toHaveLength(2);
    expect((await store.namespace('memory-listings').entries()).map(([key]) => key)).toEqual(['telegram|-100|7']);
    await store.close();
    expect(left).not.toMatch(/Paris|tea|Tuesday|Kyoto|wxid_a|5521|Zebra/);
    expect(left).toMatch(/canteen/);
    expect(left).toMatch(/bike/);
    expect(left).toMatch(/Rome/);
    expect(left).toMatch(/Lyon/);
    expect(left).toMatch(/trains/);
    const auditFile = join(dataDir, 'audit', 'audit.jsonl');
    expect(existsSync(auditFile)).toBe(true);
    expect(readFileSync(auditFile, 'utf8')).toMatch(/"kind":"memory-deleted".*"userId":"telegram:42"/);
  });

  it('refuses without a person', async () => {
    const configFile = join(folder, 'config.yaml');
    writeFileSync(configFile, `storage:\n  dataDir: ${join(folder, 'data')}\n`);
    const errors = capture();
    expect(await runMemory(parseArguments(['memory', '--export', '--config', configFile]), capture(), errors)).toBe(2);
    expect(errors.text()).toContain('Usage: npm run memory');
  });
});
