import { describe, expect, it } from 'vitest';
import { memoryCommand } from '../../../src/agent/memory-commands.js';
import type { MessageReceived } from '../../../src/events/inbound-event.js';
import { messagesFor } from '../../../src/i18n/messages.js';
import { createFactStore, type FactList } from '../../../src/memory/create-fact-store.js';
import { createIdentityLinks, type IdentityLink } from '../../../src/memory/create-identity-links.js';
import { useScratchStores } from '../../fakes/use-scratch-stores.js';

function message(channel: string, userId: string): MessageReceived {
  return { type: 'message-received', id: 'm', traceId: 'm', at: '2026-12-02T09:00:00.000Z', channel, chatId: userId, sessionKey: `${channel}:${userId}`, origin: 'user', unattended: false, sender: { id: userId, displayName: 'Alice' }, text: '/memory', media: [], isGroup: false, mentioned: true };
}

describe('/memory after /link', () => {
  const openStore = useScratchStores('memory-command');

  it('lists the facts of every linked account, naming the channel of those said elsewhere, each with a Forget button', async () => {
    const store = await openStore();
    const now = () => new Date('2026-12-02T09:00:00Z');
    const identities = createIdentityLinks(store.namespace<IdentityLink>('memory-identities'), { now });
    const facts = createFactStore(store.namespace<FactList>('memory-facts'), { now, resolveScope: (scope) => identities.resolve(scope) });
    const said = (channel: string, userId: string, statement: string, subject: string) =>
      facts.record({ scope: { kind: 'person', channel, userId }, subject, statement, source: { messageId: subject, authorId: userId, authorName: 'Alice', channel, chatId: userId, at: '2026-12-01T08:00:00.000Z' }, trust: 'allowed-user' });
    await said('telegram', '42', 'Alice lives in Paris.', 'home city');
    await said('wechat', 'wxid_a', 'Alice likes tea.', 'drink');
    await identities.link({ channel: 'telegram', userId: '42' }, { channel: 'wechat', userId: 'wxid_a' }, facts);
    const deps = { facts, audit: () => undefined, approvalRouteFor: () => ({ approvers: [], approverChannel: 'wechat', targets: [] }), messages: messagesFor('en') };
    const answer = await memoryCommand(deps, message('wechat', 'wxid_a'), []);
    expect(answer.text).toContain('1. Alice lives in Paris. (from Alice, 2026-12-01, on telegram)');
    expect(answer.text).toContain('2. Alice likes tea. (from Alice, 2026-12-01)\n');
    expect(answer.buttons?.map((button) => [button.label, button.action])).toEqual([
      ['🗑 Forget 1', 'memory-forget'],
      ['🗑 Forget 2', 'memory-forget'],
    ]);
  });
});
