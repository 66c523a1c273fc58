// Memory in cluster mode: two instances (two pools) over one real PostgreSQL database share the facts, their vectors
// and the link codes: what one instance records the other recalls (keywords and vectors), concurrent writes to one
// scope lose nothing, and a link code is redeemed once across both.
import { describe, expect, it } from 'vitest';
import type { EmbeddingsClient } from '../../../src/memory/create-embeddings-client.js';
import { createFactStore, type FactList, type NewFact } from '../../../src/memory/create-fact-store.js';
import { createFactVectors, type ScopeVectors } from '../../../src/memory/create-fact-vectors.js';
import { createIdentityLinks, type IdentityLink } from '../../../src/memory/create-identity-links.js';
import { createLinkCodes, type StoredLinkCode } from '../../../src/memory/create-link-codes.js';
import { recallFacts } from '../../../src/memory/recall-facts.js';
import { createStore } from '../../../src/store/index.js';
import type { Store } from '../../../src/store/key-value-namespace.js';
import { useScratchDatabase } from '../../contracts/scratch-postgres.js';
import { deterministicEmbedding } from '../../fakes/scripted-model-server.js';

const scratch = await useScratchDatabase();
const up = scratch.up;
const skip = up ? undefined : 'PostgreSQL is not running on 127.0.0.1:5432';

const embeddings: EmbeddingsClient = { model: 'embed-test', embed: async (texts) => ({ ok: true, vectors: texts.map((text) => deterministicEmbedding(text.replace(/puppy/g, 'dog'))) }) };
const now = () => new Date('2026-12-02T09:00:00Z');

/** One instance's memory parts over its own pool, as src/app/wire-memory.ts builds them. */
function instance(store: Store) {
  const identities = createIdentityLinks(store.namespace<IdentityLink>('memory-identities'), { now });
  const facts = createFactStore(store.namespace<FactList>('memory-facts'), { now, resolveScope: (scope) => identities.resolve(scope) });
  return { identities, facts, vectors: createFactVectors(store.namespace<ScopeVectors>('memory-vectors'), embeddings), codes: createLinkCodes(store.namespace<StoredLinkCode>('memory-link-codes'), { now }) };
}

const fact = (statement: string, subject: string, messageId: string): NewFact => ({
  scope: { kind: 'person', channel: 'telegram', userId: '42' },
  subject,
  statement,
  source: { messageId, authorId: '42', authorName: 'Alice', channel: 'telegram', chatId: '42', at: '2026-12-02T08:00:00.000Z' },
  trust: 'allowed-user',
});

describe.skipIf(!up)(`memory over PostgreSQL, two instances${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('facts and vectors written by one instance are recalled by the other; concurrent writes to one scope all stay', async () => {
    const first = await createStore({ url: scratch.url(), dataDir: '.' });
    const second = await createStore({ url: scratch.url(), dataDir: '.' });
    try {
      const a = instance(first);
      const b = instance(second);
      const dog = await a.facts.record(fact('Their dog is Biscuit.', 'dog', 'm1'));
      await a.vectors.add([dog], { origin: 'user', sessionKey: 'telegram:42', userId: '42', channel: 'telegram', chatId: '42' });
      await Promise.all(Array.from({ length: 10 }, (_, index) => (index % 2 === 0 ? a : b).facts.record(fact(`Thing ${index} is kept.`, `thing ${index}`, `t${index}`))));
      expect(await b.facts.current({ kind: 'person', channel: 'telegram', userId: '42' })).toHaveLength(11);
      const request = { channel: 'telegram', chatId: '42', userId: '42', isGroup: false, query: 'puppy name' };
      const recalled = await recallFacts(b.facts, request, { budgetChars: 25, similarity: (query, visible) => b.vectors.similarities(query, visible, { origin: 'user', sessionKey: 'telegram:42', userId: '42', channel: 'telegram', chatId: '42' }) });
      expect(recalled.map((known) => known.statement)).toEqual(['Their dog is Biscuit.']);
    } finally {
      await first.close();
      await second.close();
    }
  });

  it('a link code issued on one instance is redeemed once, whichever instances try at the same time', async () => {
    const first = await createStore({ url: scratch.url(), dataDir: '.' });
    const second = await createStore({ url: scratch.url(), dataDir: '.' });
    try {
      const a = instance(first);
      const b = instance(second);
      const { code } = await a.codes.issue({ channel: 'telegram', userId: '42' });
      const redeemed = await Promise.all([a.codes.redeem(code), b.codes.redeem(code), b.codes.redeem(code), a.codes.redeem(code)]);
      expect(redeemed.filter((identity) => identity !== undefined)).toEqual([{ channel: 'telegram', userId: '42' }]);
      await a.facts.record(fact('Their bike is green.', 'bike', 'm-bike'));
      await b.identities.link({ channel: 'telegram', userId: '42' }, { channel: 'wechat', userId: 'wxid_a' }, b.facts);
      expect((await a.facts.current({ kind: 'person', channel: 'wechat', userId: 'wxid_a' })).map((known) => known.statement)).toContain('Their bike is green.');
    } finally {
      await first.close();
      await second.close();
    }
  });
});
