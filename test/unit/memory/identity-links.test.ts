import { describe, expect, it } from 'vitest';
import { createFactStore, type FactList } from '../../../src/memory/create-fact-store.js';
import { createIdentityLinks, type IdentityLink } from '../../../src/memory/create-identity-links.js';
import { createLinkCodes, type StoredLinkCode } from '../../../src/memory/create-link-codes.js';
import type { FactScope } from '../../../src/memory/memory-fact.js';
import { useScratchStores } from '../../fakes/use-scratch-stores.js';

const telegramAlice = { channel: 'telegram', userId: '42' };
const wechatAlice = { channel: 'wechat', userId: 'wxid_alice' };
const personOf = (identity: { channel: string; userId: string }): FactScope => ({ kind: 'person', ...identity });
const source = (channel: string, at: string) => ({ messageId: at, authorId: 'x', authorName: 'Alice', channel, chatId: 'c', at });

describe('identity links and one-time link codes over a real SQLite store', () => {
  const openStore = useScratchStores('links');

  async function open(clock: { now: Date }) {
    const store = await openStore();
    const now = () => clock.now;
    const identities = createIdentityLinks(store.namespace<IdentityLink>('memory-identities'), { now });
    const facts = createFactStore(store.namespace<FactList>('memory-facts'), { now, resolveScope: (scope) => identities.resolve(scope) });
    const codes = createLinkCodes(store.namespace<StoredLinkCode>('memory-link-codes'), { now });
    return { store, identities, facts, codes };
  }

  it('a code is stored only as its hash, is taken once, and not after 10 minutes', async () => {
    const clock = { now: new Date('2026-12-02T09:00:00Z') };
    const { store, codes } = await open(clock);
    const first = await codes.issue(telegramAlice);
    expect(first.code).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
    expect(JSON.stringify(await store.namespace('memory-link-codes').entries())).not.toContain(first.code);
    expect(await codes.redeem(` ${first.code.slice(0, 4).toLowerCase()}-${first.code.slice(4)} `)).toEqual(telegramAlice);
    expect(await codes.redeem(first.code)).toBeUndefined();
    const second = await codes.issue(telegramAlice);
    clock.now = new Date('2026-12-02T09:10:01Z');
    expect(await codes.redeem(second.code)).toBeUndefined();
    expect(await codes.redeem('NOT A CODE!')).toBeUndefined();
  });

  it('linking moves the joining account\'s facts into the owner\'s scope, the newest value of a subject winning; both then read and write one scope', async () => {
    const clock = { now: new Date('2026-12-02T09:00:00Z') };
    const { facts, identities } = await open(clock);
    await facts.record({ scope: personOf(telegramAlice), subject: 'home city', statement: 'Lives in Lyon.', source: source('telegram', '2026-12-01T08:00:00.000Z'), trust: 'allowed-user' });
    await facts.record({ scope: personOf(wechatAlice), subject: 'home city', statement: 'Lives in Paris.', source: source('wechat', '2026-12-02T08:00:00.000Z'), trust: 'allowed-user' });
    await facts.record({ scope: personOf(wechatAlice), subject: 'drink', statement: 'Likes tea.', source: source('wechat', '2026-12-02T08:01:00.000Z'), trust: 'allowed-user' });
    await identities.link(telegramAlice, wechatAlice, facts);
    const seen = (await facts.current(personOf(wechatAlice))).map((fact) => fact.statement);
    expect(seen).toEqual(['Lives in Paris.', 'Likes tea.']);
    expect(await facts.current(personOf(telegramAlice))).toEqual(await facts.current(personOf(wechatAlice)));
    expect((await facts.history(personOf(telegramAlice))).map((fact) => fact.statement)).toEqual(['Lives in Lyon.', 'Lives in Paris.', 'Likes tea.']);
    expect((await facts.all()).map(([key]) => key)).toEqual(['person|telegram|42']);
    expect(await identities.identitiesOf(wechatAlice)).toEqual([telegramAlice, wechatAlice]);
  });
});
