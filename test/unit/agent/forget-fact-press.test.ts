import { describe, expect, it } from 'vitest';
import { forgetPressed } from '../../../src/agent/forget-fact-press.js';
import type { ActionClicked } from '../../../src/events/inbound-event.js';
import { createFactStore, type FactList } from '../../../src/memory/create-fact-store.js';
import type { FactScope } from '../../../src/memory/memory-fact.js';
import type { AuditEntry } from '../../../src/registry/audit-log.js';
import { useScratchStores } from '../../fakes/use-scratch-stores.js';

const group: FactScope = { kind: 'group', channel: 'telegram', chatId: '-100' };
const bobsPerson: FactScope = { kind: 'person', channel: 'telegram', userId: 'bob' };
const source = (authorId: string) => ({ messageId: '1', authorId, authorName: authorId, channel: 'telegram', chatId: '-100', at: '2026-12-02T08:00:00.000Z' });

function press(senderId: string, actionId: string, choice = 'forget'): ActionClicked {
  return { type: 'action-clicked', id: 'e1', traceId: 'e1', at: '2026-12-02T09:00:00.000Z', channel: 'telegram', chatId: '-100', sessionKey: 'telegram:-100', origin: 'user', unattended: false, sender: { id: senderId, displayName: senderId }, action: 'memory-forget', actionId, choice };
}

describe('a Forget button press', () => {
  const openStore = useScratchStores('press');

  async function open() {
    const store = await openStore();
    const facts = createFactStore(store.namespace<FactList>('memory-facts'), { now: () => new Date('2026-12-02T09:00:00Z') });
    const audit: AuditEntry[] = [];
    const deps = { facts, audit: (entry: AuditEntry) => void audit.push(entry), approvalRouteFor: () => ({ approvers: ['alice'], approverChannel: 'telegram', targets: [] }) };
    return { facts, audit, deps };
  }

  it("forgets a group fact for its author or an approver only, and never reaches another person's own facts", async () => {
    const { facts, audit, deps } = await open();
    const meeting = await facts.record({ scope: group, subject: 'meeting', statement: 'Meetings are on Tuesday.', source: source('bob'), trust: 'group-member' });
    const drink = await facts.record({ scope: bobsPerson, subject: 'drink', statement: 'Bob likes tea.', source: source('bob'), trust: 'group-member' });
    expect(await forgetPressed(deps, press('carol', meeting.id))).toEqual({ kind: 'not-yours' });
    // Bob's own fact, pressed by the approver: not in any scope she can reach from this chat.
    expect(await forgetPressed(deps, press('alice', drink.id))).toEqual({ kind: 'gone' });
    expect(await forgetPressed(deps, press('carol', '../../x'))).toEqual({ kind: 'gone' });
    expect(await forgetPressed(deps, press('bob', meeting.id, 'once'))).toEqual({ kind: 'gone' });
    expect(audit).toEqual([]);
    expect(await forgetPressed(deps, press('alice', meeting.id))).toEqual({ kind: 'forgotten', statement: 'Meetings are on Tuesday.' });
    expect(await facts.current(group)).toEqual([]);
    expect(audit).toMatchObject([{ kind: 'memory-forgotten', userId: 'alice', outcome: 'forgotten:1', arguments: { via: 'button', factIds: [meeting.id] } }]);
    expect(await forgetPressed(deps, press('bob', drink.id))).toEqual({ kind: 'forgotten', statement: 'Bob likes tea.' });
  });
});
