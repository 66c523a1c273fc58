import type { KeyValueNamespace } from '../store/key-value-namespace.js';
import type { FactStore } from './create-fact-store.js';
import type { FactScope } from './memory-fact.js';

/** One person's account on one channel. */
export type PersonIdentity = { readonly channel: string; readonly userId: string };

/** Where a linked identity's person facts live (namespace `memory-identities`, key `<channel>|<userId>`). */
export type IdentityLink = PersonIdentity & { readonly linkedAt: string };

/** Identities a person linked across channels (`/link`): they share one person scope. */
export interface IdentityLinks {
  /** A person scope as stored: the scope of the identity it was linked to; any other scope as it is. */
  resolve(scope: FactScope): Promise<FactScope>;
  /** Links `joining` to `owner`'s person scope (and every identity already linked to `joining`), moving their facts. */
  link(owner: PersonIdentity, joining: PersonIdentity, facts: Pick<FactStore, 'merge'>): Promise<void>;
  /** Every identity sharing this identity's person scope, itself included. */
  identitiesOf(identity: PersonIdentity): Promise<readonly PersonIdentity[]>;
  /** Removes the links of these identities (the operator's delete). */
  unlink(identities: readonly PersonIdentity[]): Promise<void>;
}

const keyOf = (identity: PersonIdentity) => `${identity.channel}|${identity.userId}`;
const personScope = (identity: PersonIdentity): FactScope => ({ kind: 'person', channel: identity.channel, userId: identity.userId });

/** Creates the identity links over their namespace. */
export function createIdentityLinks(links: KeyValueNamespace<IdentityLink>, options: { readonly now: () => Date }): IdentityLinks {
  async function canonical(identity: PersonIdentity): Promise<PersonIdentity> {
    const link = await links.get(keyOf(identity));
    return link === undefined ? identity : { channel: link.channel, userId: link.userId };
  }
  return {
    async resolve(scope) {
      if (scope.kind !== 'person') return scope;
      return personScope(await canonical({ channel: scope.channel, userId: scope.userId }));
    },
    async link(owner, joining, facts) {
      const into = await canonical(owner);
      const from = await canonical(joining);
      if (keyOf(into) === keyOf(from)) return;
      const linkedAt = options.now().toISOString();
      const moving = [from, ...(await links.entries()).filter(([, link]) => keyOf(link) === keyOf(from)).map(([, link]) => link)];
      for (const identity of moving) await links.set(keyOf(identity), { ...into, linkedAt });
      await facts.merge(personScope(from), personScope(into));
    },
    async identitiesOf(identity) {
      const root = await canonical(identity);
      const linked = (await links.entries()).filter(([, link]) => keyOf(link) === keyOf(root)).map(([key]) => {
        const [channel = '', ...rest] = key.split('|');
        return { channel, userId: rest.join('|') };
      });
      const all = [root, ...linked];
      return all.filter((candidate, index) => all.findIndex((other) => keyOf(other) === keyOf(candidate)) === index);
    },
    async unlink(identities) {
      for (const identity of identities) await links.delete(keyOf(identity));
    },
  };
}
