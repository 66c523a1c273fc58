import type { MessageReceived } from '../events/inbound-event.js';
import type { Messages } from '../i18n/messages.js';
import type { ExchangeArchive } from '../memory/create-exchange-archive.js';
import type { FactStore } from '../memory/create-fact-store.js';
import type { IdentityLinks } from '../memory/create-identity-links.js';
import type { FactScope } from '../memory/memory-fact.js';
import type { LinkCodes } from '../memory/create-link-codes.js';
import type { AuditEntry } from '../registry/audit-log.js';

/** What `/link` works with. */
export type LinkCommandDependencies = {
  readonly identities: IdentityLinks;
  readonly linkCodes: LinkCodes;
  readonly facts: FactStore;
  /** The exchange archive: the joining account's private exchanges move with its facts. */
  readonly exchanges?: ExchangeArchive;
  readonly audit: (entry: AuditEntry) => void;
  readonly messages: Messages;
  readonly now: () => Date;
};

/**
 * `/link` gives a one-time code (10 minutes, stored only as its hash); `/link <code>` sent from another account links
 * that account to the one that asked: both then share one person scope (the asker's), the joining account's facts
 * (and private exchanges) moved into it. Private chats only: whoever redeems a code reads the asker's facts, so a code must not be seen by others.
 */
export async function linkCommand(deps: LinkCommandDependencies, event: MessageReceived, args: readonly string[]): Promise<string> {
  if (event.isGroup) return deps.messages.memory.linkOnlyPrivate;
  const me = { channel: event.channel, userId: event.sender.id };
  const [code] = args;
  if (code === undefined) {
    const issued = await deps.linkCodes.issue(me);
    const minutes = Math.max(1, Math.round((Date.parse(issued.expiresAt) - deps.now().getTime()) / 60_000));
    return deps.messages.memory.linkCode({ code: issued.code, minutes });
  }
  const owner = await deps.linkCodes.redeem(args.join(''));
  if (owner === undefined || (owner.channel === me.channel && owner.userId === me.userId)) return deps.messages.memory.linkInvalid;
  const exchanges = deps.exchanges;
  const facts = exchanges === undefined ? deps.facts : { merge: async (from: FactScope, into: FactScope) => (await deps.facts.merge(from, into)) + (await exchanges.merge(from, into)) };
  await deps.identities.link(owner, me, facts);
  deps.audit({ kind: 'memory-linked', sessionKey: event.sessionKey, userId: event.sender.id, channel: event.channel, arguments: { owner, joining: me }, outcome: 'linked' });
  return deps.messages.memory.linkDone;
}
