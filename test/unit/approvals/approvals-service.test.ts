import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type ApprovalRequestInput, type ApprovalsService, createApprovalsService } from '../../../src/approvals/approvals-service.js';
import { createGrantStore, type Grant } from '../../../src/approvals/grants.js';
import type { PendingApproval } from '../../../src/approvals/pending-approval.js';
import type { Risk } from '../../../src/events/risk.js';
import { type AuditLog, createAuditLog } from '../../../src/registry/audit-log.js';
import { hashToolCall } from '../../../src/registry/canonical-json.js';
import { createStore } from '../../../src/store/create-store.js';
import type { Store } from '../../../src/store/key-value-namespace.js';
import { createTemporaryFolder } from '../registry/registry-fixtures.js';

type Harness = { service: ApprovalsService; store: Store; audit: AuditLog; clock: { now: Date }; reopen(): Promise<ApprovalsService>; close(): Promise<void> };
const open: Harness[] = [];
afterEach(async () => {
  while (open.length > 0) await open.pop()?.close();
});

const timeoutMs = 30 * 60_000;

async function createHarness(): Promise<Harness> {
  const folder = createTemporaryFolder('approvals');
  const clock = { now: new Date('2025-03-01T12:00:00.000Z') };
  let store = await createStore({ dataDir: folder.path });
  const audit = createAuditLog({ directory: join(folder.path, 'audit') });
  const build = (over: Store) =>
    createApprovalsService({
      approvals: over.namespace<PendingApproval>('approvals'),
      index: over.namespace<string[]>('approvals-index'),
      grants: createGrantStore(over.namespace<Grant[]>('grants-session'), over.namespace<Grant[]>('grants-always')),
      audit,
      timeoutMs,
      now: () => clock.now,
    });
  const harness: Harness = {
    service: build(store),
    get store() {
      return store;
    },
    audit,
    clock,
    async reopen() {
      await store.close();
      store = await createStore({ dataDir: folder.path });
      return build(store);
    },
    async close() {
      await audit.flush();
      await store.close();
      folder.remove();
    },
  };
  open.push(harness);
  return harness;
}

function requestInput(overrides: Partial<ApprovalRequestInput> = {}): ApprovalRequestInput {
  const input = overrides.input ?? { command: 'deploy staging' };
  const toolName = overrides.toolName ?? 'exec';
  return {
    toolName,
    risk: 'exec' as Risk,
    input,
    argumentsHash: hashToolCall(toolName, input),
    summary: 'Deploy staging',
    reason: 'this tool always asks',
    requester: { id: '42', displayName: 'Bob' },
    approvers: ['1', '2', '3', '42'],
    approverChannel: 'telegram',
    channel: 'telegram',
    sessionKey: 'telegram:1001',
    origin: { channel: 'telegram', chatId: '1001' },
    ...overrides,
  };
}

const decider = (id: string, choice: 'once' | 'session' | 'always' | 'deny' = 'once', deciderChannel = 'telegram') => ({ deciderId: id, deciderChannel, deciderName: `user-${id}`, choice });

describe('approvals service: open', () => {
  it('stores a pending approval with a short id, choices and an expiry, and lists it', async () => {
    const { service, audit } = await createHarness();
    const approval = await service.open(requestInput());
    expect(approval).toMatchObject({
      status: 'pending',
      toolName: 'exec',
      choices: ['once', 'session', 'always', 'deny'],
      createdAt: '2025-03-01T12:00:00.000Z',
      expiresAt: '2025-03-01T12:30:00.000Z',
      cards: [],
    });
    expect(approval.id).toMatch(/^[a-z2-9]{12}$/);
    expect(await service.get(approval.id)).toEqual(approval);
    expect((await service.listDecidableBy('1', 'telegram')).map((item) => item.id)).toEqual([approval.id]);
    expect((await audit.recent(1))[0]).toMatchObject({ kind: 'approval-requested', approvalId: approval.id, tool: 'exec', outcome: 'pending', userId: '42' });
  });

  it('does not offer always for a dangerous tool', async () => {
    const { service } = await createHarness();
    expect((await service.open(requestInput({ risk: 'dangerous' }))).choices).toEqual(['once', 'session', 'deny']);
  });

  it('gives every approval its own id', async () => {
    const { service } = await createHarness();
    const ids = new Set<string>();
    for (let index = 0; index < 20; index += 1) ids.add((await service.open(requestInput())).id);
    expect(ids.size).toBe(20);
  });

  it('survives a reopen of the SQLite file', async () => {
    const harness = await createHarness();
    const approval = await harness.service.open(requestInput());
    const reopened = await harness.reopen();
    expect((await reopened.get(approval.id))?.status).toBe('pending');
    expect((await reopened.decide({ id: approval.id, ...decider('1') })).ok).toBe(true);
  });
});

describe('approvals service: decide', () => {
  it('approves once and records who decided and when', async () => {
    const { service, clock, audit } = await createHarness();
    const approval = await service.open(requestInput());
    clock.now = new Date('2025-03-01T12:03:00.000Z');
    const result = await service.decide({ id: approval.id, ...decider('1') });
    expect(result).toEqual({ ok: true, approval: { ...approval, status: 'approved', scope: 'once', decidedBy: 'user-1', decidedAt: '2025-03-01T12:03:00.000Z' } });
    expect(await service.get(approval.id)).toMatchObject({ status: 'approved', decidedBy: 'user-1' });
    expect(await service.listDecidableBy('1', 'telegram')).toEqual([]);
    expect((await audit.recent(1))[0]).toMatchObject({ kind: 'approval-decided', approvalId: approval.id, outcome: 'approved:once', decidedBy: 'user-1', userId: '1' });
  });

  it('denies with a reason', async () => {
    const { service } = await createHarness();
    const approval = await service.open(requestInput());
    const result = await service.decide({ id: approval.id, ...decider('2', 'deny'), reason: 'not today' });
    expect(result).toMatchObject({ ok: true, approval: { status: 'denied', decidedBy: 'user-2', denialReason: 'not today' } });
    expect(result.ok && result.approval.scope).toBeUndefined();
  });

  it('decides exactly once among concurrent deciders; the others learn who won', async () => {
    const { service } = await createHarness();
    const approval = await service.open(requestInput());
    const results = await Promise.all(
      [decider('1'), decider('2', 'deny'), decider('3', 'session'), decider('42', 'always'), decider('1', 'deny')].map((who) => service.decide({ id: approval.id, ...who })),
    );
    const winners = results.filter((result) => result.ok);
    const losers = results.filter((result) => !result.ok);
    expect(winners).toHaveLength(1);
    expect(losers).toHaveLength(4);
    const winner = winners[0];
    if (!winner?.ok) throw new Error('no winner');
    for (const loser of losers) {
      expect(loser).toMatchObject({ ok: false, code: 'already-decided', approval: { status: winner.approval.status, decidedBy: winner.approval.decidedBy } });
    }
    expect(await service.get(approval.id)).toEqual(winner.approval);
  });

  it('refuses a non-approver and changes nothing', async () => {
    const { service, audit } = await createHarness();
    const approval = await service.open(requestInput({ approvers: ['1'] }));
    const result = await service.decide({ id: approval.id, ...decider('666') });
    expect(result).toEqual({ ok: false, code: 'not-allowed', approval });
    expect(await service.get(approval.id)).toEqual(approval);
    expect((await service.listDecidableBy('1', 'telegram')).map((item) => item.id)).toEqual([approval.id]);
    expect((await audit.recent(10)).map((entry) => entry.kind)).toEqual(['approval-requested']);
  });

  it('refuses the requester when approvers are configured and the requester is not one', async () => {
    const { service } = await createHarness();
    const approval = await service.open(requestInput({ approvers: ['1'] }));
    expect(await service.decide({ id: approval.id, ...decider('42') })).toMatchObject({ ok: false, code: 'not-allowed' });
  });

  it("refuses a choice that was not offered ('always' for a dangerous tool) and keeps it pending", async () => {
    const { service } = await createHarness();
    const approval = await service.open(requestInput({ risk: 'dangerous' }));
    expect(await service.decide({ id: approval.id, ...decider('1', 'always') })).toEqual({ ok: false, code: 'choice-not-offered', approval });
    expect((await service.get(approval.id))?.status).toBe('pending');
    expect((await service.decide({ id: approval.id, ...decider('1', 'session') })).ok).toBe(true);
  });

  it('refuses an unknown id', async () => {
    const { service } = await createHarness();
    expect(await service.decide({ id: 'nosuchid', ...decider('1') })).toEqual({ ok: false, code: 'not-found' });
  });

  it('checks expiry at decision time: a press after the deadline expires it instead', async () => {
    const { service, clock } = await createHarness();
    const approval = await service.open(requestInput());
    clock.now = new Date('2025-03-01T12:30:00.000Z');
    const result = await service.decide({ id: approval.id, ...decider('1') });
    expect(result).toMatchObject({ ok: false, code: 'expired', approval: { status: 'expired', decidedAt: '2025-03-01T12:30:00.000Z' } });
    expect(await service.get(approval.id)).toMatchObject({ status: 'expired' });
    expect(await service.listDecidableBy('1', 'telegram')).toEqual([]);
    expect(await service.decide({ id: approval.id, ...decider('2') })).toMatchObject({ ok: false, code: 'already-decided' });
  });

  it('accepts a press one millisecond before the deadline', async () => {
    const { service, clock } = await createHarness();
    const approval = await service.open(requestInput());
    clock.now = new Date('2025-03-01T12:29:59.999Z');
    expect((await service.decide({ id: approval.id, ...decider('1') })).ok).toBe(true);
  });

  it("the store's compare-and-set keeps a record's expiry, which decided approvals rely on to be cleaned up", async () => {
    const { store } = await createHarness();
    const space = store.namespace<{ status: string }>('ttl-check');
    await space.set('short', { status: 'pending' }, 40);
    await space.set('kept', { status: 'pending' });
    expect(await space.update('short', (current) => (current ? { status: 'approved' } : current))).toEqual({ status: 'approved' });
    await space.update('kept', () => ({ status: 'approved' }));
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(await space.get('short')).toBeUndefined();
    expect(await space.get('kept')).toEqual({ status: 'approved' });
  });
});

describe('approvals service: grants from scopes', () => {
  it('once creates no grant', async () => {
    const { service } = await createHarness();
    const input = requestInput();
    const approval = await service.open(input);
    await service.decide({ id: approval.id, ...decider('1', 'once') });
    expect(await service.grants.has({ sessionKey: 'telegram:1001', userKey: 'telegram:42', toolName: 'exec', argumentsHash: input.argumentsHash })).toBeUndefined();
  });

  it('session creates a grant for this session and these arguments', async () => {
    const { service } = await createHarness();
    const input = requestInput();
    const approval = await service.open(input);
    await service.decide({ id: approval.id, ...decider('1', 'session') });
    const query = { sessionKey: 'telegram:1001', userKey: 'telegram:42', toolName: 'exec', argumentsHash: input.argumentsHash };
    expect(await service.grants.has(query)).toBe('session');
    expect(await service.grants.has({ ...query, sessionKey: 'telegram:2002', userKey: 'telegram:7' })).toBeUndefined();
    expect(await service.grants.has({ ...query, argumentsHash: hashToolCall('exec', { command: 'other' }) })).toBeUndefined();
  });

  it('always creates a grant for the requester (not the decider), in any session', async () => {
    const { service } = await createHarness();
    const input = requestInput();
    const approval = await service.open(input);
    await service.decide({ id: approval.id, ...decider('1', 'always') });
    const query = { sessionKey: 'telegram:other', userKey: 'telegram:42', toolName: 'exec', argumentsHash: input.argumentsHash };
    expect(await service.grants.has(query)).toBe('always');
    expect(await service.grants.has({ ...query, userKey: 'telegram:1' })).toBeUndefined();
    expect(await service.grants.listAlways('telegram:42')).toEqual([
      { toolName: 'exec', argumentsHash: input.argumentsHash, summary: 'Deploy staging', grantedBy: 'user-1', grantedAt: '2025-03-01T12:00:00.000Z' },
    ]);
  });

  it('a denial creates no grant', async () => {
    const { service } = await createHarness();
    const input = requestInput();
    const approval = await service.open(input);
    await service.decide({ id: approval.id, ...decider('1', 'deny') });
    expect(await service.grants.listAlways('telegram:42')).toEqual([]);
  });
});

describe('approvals service: expiry sweep', () => {
  it('expires only what is due, removes it from the pending index, and audits it', async () => {
    const { service, clock, audit } = await createHarness();
    const early = await service.open(requestInput());
    clock.now = new Date('2025-03-01T12:10:00.000Z');
    const late = await service.open(requestInput());
    const due = new Date('2025-03-01T12:35:00.000Z');
    const expired = await service.expireDue(due);
    expect(expired.map((item) => item.id)).toEqual([early.id]);
    expect(expired[0]).toMatchObject({ status: 'expired', decidedAt: '2025-03-01T12:35:00.000Z' });
    expect((await service.get(early.id))?.status).toBe('expired');
    expect((await service.get(late.id))?.status).toBe('pending');
    expect((await service.listDecidableBy('1', 'telegram')).map((item) => item.id)).toEqual([late.id]);
    expect(await service.expireDue(due)).toEqual([]);
    expect((await audit.recent(1))[0]).toMatchObject({ kind: 'approval-expired', approvalId: early.id, outcome: 'expired' });
  });

  it('drops decided approvals from the index without reporting them', async () => {
    const { service, store } = await createHarness();
    const decided = await service.open(requestInput());
    await service.decide({ id: decided.id, ...decider('1') });
    // Put it back into the index, as after a crash between the decision and the index update.
    await store.namespace<string[]>('approvals-index').set('pending', [decided.id]);
    expect(await service.expireDue(new Date('2030-01-01T00:00:00.000Z'))).toEqual([]);
    expect(await store.namespace<string[]>('approvals-index').get('pending')).toEqual([]);
  });

  it('an approval the sweep expired can no longer be decided', async () => {
    const { service } = await createHarness();
    const approval = await service.open(requestInput());
    await service.expireDue(new Date('2025-03-01T13:00:00.000Z'));
    expect(await service.decide({ id: approval.id, ...decider('1') })).toMatchObject({ ok: false, code: 'already-decided', approval: { status: 'expired' } });
  });
});

describe('approvals service: finding pending approvals', () => {
  it('listDecidableBy gives what this person may decide in this channel, newest first', async () => {
    const { service, clock } = await createHarness();
    const first = await service.open(requestInput({ approvers: ['1'] }));
    clock.now = new Date('2025-03-01T12:01:00.000Z');
    const second = await service.open(requestInput({ approvers: ['1', '2'] }));
    await service.open(requestInput({ approvers: ['2'] }));
    await service.open(requestInput({ approvers: ['1'], channel: 'wechat', approverChannel: 'wechat', origin: { channel: 'wechat', chatId: 'room' } }));
    expect((await service.listDecidableBy('1', 'telegram')).map((item) => item.id)).toEqual([second.id, first.id]);
    expect(await service.listDecidableBy('9', 'telegram')).toEqual([]);
  });

  it('listDecidableBy lists approvals raised elsewhere (a webhook turn) whose approvers belong to that channel', async () => {
    const { service } = await createHarness();
    const approval = await service.open(requestInput({ channel: 'webhook', approverChannel: 'telegram', approvers: ['1'] }));
    expect(await service.listDecidableBy('1', 'webhook')).toEqual([]);
    await service.attachCard(approval.id, { target: { channel: 'telegram', chatId: '1' }, messageId: 'm1' });
    expect((await service.listDecidableBy('1', 'telegram')).map((item) => item.id)).toEqual([approval.id]);
    expect((await service.get(approval.id))?.cards).toEqual([{ target: { channel: 'telegram', chatId: '1' }, messageId: 'm1' }]);
  });

  it('latestPendingIn gives the newest pending approval whose card is in that chat', async () => {
    const { service } = await createHarness();
    const chat = { channel: 'wechat', chatId: 'room-1' };
    const older = await service.open(requestInput());
    const newer = await service.open(requestInput());
    const elsewhere = await service.open(requestInput());
    await service.attachCard(older.id, { target: chat });
    await service.attachCard(newer.id, { target: chat });
    await service.attachCard(elsewhere.id, { target: { channel: 'wechat', chatId: 'room-2' } });
    expect((await service.latestPendingIn(chat))?.id).toBe(newer.id);
    await service.decide({ id: newer.id, ...decider('1') });
    expect((await service.latestPendingIn(chat))?.id).toBe(older.id);
    expect(await service.latestPendingIn({ channel: 'wechat', chatId: 'room-3' })).toBeUndefined();
  });
});

describe('grant store: always grants', () => {
  const grant = (summary: string): Grant => ({ toolName: 'exec', argumentsHash: hashToolCall('exec', { command: summary }), summary, grantedBy: 'a', grantedAt: 'now' });

  it('revokeAlways removes the n-th grant (numbered from 1) and nothing else', async () => {
    const { service } = await createHarness();
    for (const name of ['first', 'second', 'third']) await service.grants.add('always', 'telegram:42', grant(name));
    expect((await service.grants.revokeAlways('telegram:42', 2))?.summary).toBe('second');
    expect((await service.grants.listAlways('telegram:42')).map((item) => item.summary)).toEqual(['first', 'third']);
    expect((await service.grants.revokeAlways('telegram:42', 1))?.summary).toBe('first');
    expect((await service.grants.listAlways('telegram:42')).map((item) => item.summary)).toEqual(['third']);
  });

  it.each([0, 4, -1, 1.5])('revokeAlways(%s) out of range removes nothing', async (number) => {
    const { service } = await createHarness();
    for (const name of ['first', 'second', 'third']) await service.grants.add('always', 'telegram:42', grant(name));
    expect(await service.grants.revokeAlways('telegram:42', number)).toBeUndefined();
    expect(await service.grants.listAlways('telegram:42')).toHaveLength(3);
  });

  it('adding the same tool and arguments again replaces the grant instead of duplicating it', async () => {
    const { service } = await createHarness();
    await service.grants.add('always', 'telegram:42', grant('same'));
    await service.grants.add('always', 'telegram:42', { ...grant('same'), grantedBy: 'b' });
    expect(await service.grants.listAlways('telegram:42')).toEqual([{ ...grant('same'), grantedBy: 'b' }]);
  });

  it('clearSession removes session grants only', async () => {
    const { service } = await createHarness();
    const item = grant('x');
    await service.grants.add('session', 'telegram:1001', item);
    await service.grants.add('always', 'telegram:42', item);
    await service.grants.clearSession('telegram:1001');
    const query = { sessionKey: 'telegram:1001', userKey: 'telegram:42', toolName: 'exec', argumentsHash: item.argumentsHash };
    expect(await service.grants.has(query)).toBe('always');
    expect(await service.grants.has({ ...query, userKey: 'telegram:7' })).toBeUndefined();
  });
});

describe('approvals service: approver ids are bound to their channel', () => {
  it('refuses a decider whose id matches an approver but who speaks from another channel', async () => {
    const { service } = await createHarness();
    const approval = await service.open(requestInput());
    expect(await service.decide({ id: approval.id, ...decider('1', 'once', 'webhook') })).toMatchObject({ ok: false, code: 'not-allowed' });
    expect((await service.get(approval.id))?.status).toBe('pending');
    expect(await service.listDecidableBy('1', 'webhook')).toEqual([]);
    expect((await service.decide({ id: approval.id, ...decider('1') })).ok).toBe(true);
  });
});

describe('approval resumption: decided → resuming → done', () => {
  it('is claimed only once decided, can be taken over after a crash, and never after it is done', async () => {
    const harness = await createHarness();
    const approval = await harness.service.open(requestInput());
    expect(await harness.service.claimResumption(approval.id, 'process-1')).toEqual({ outcome: 'over' });
    await harness.service.decide({ id: approval.id, ...decider('1') });
    expect(await harness.service.claimResumption(approval.id, 'process-1')).toEqual({ outcome: 'claimed', starts: 1 });
    expect((await harness.service.get(approval.id))?.resumption).toMatchObject({ state: 'resuming', by: 'process-1', starts: 1 });
    // process-1 died mid-resumption: the restarted process takes the claim over.
    const restarted = harness.service;
    expect(await restarted.claimResumption(approval.id, 'process-2')).toEqual({ outcome: 'claimed', starts: 2 });
    await restarted.finishResumption(approval.id, 'process-2');
    expect(await restarted.claimResumption(approval.id, 'process-3')).toEqual({ outcome: 'over' });
    expect((await restarted.get(approval.id))?.resumption?.state).toBe('done');
  });

  it('counts each start in the claim and, once started parkAfter times without finishing, is exhausted rather than claimed', async () => {
    const harness = await createHarness();
    const approval = await harness.service.open(requestInput());
    await harness.service.decide({ id: approval.id, ...decider('1') });
    expect(await harness.service.claimResumption(approval.id, 'process-1', { parkAfter: 2 })).toEqual({ outcome: 'claimed', starts: 1 });
    expect(await harness.service.claimResumption(approval.id, 'process-2', { parkAfter: 2 })).toEqual({ outcome: 'claimed', starts: 2 });
    expect(await harness.service.claimResumption(approval.id, 'process-3', { parkAfter: 2 })).toEqual({ outcome: 'exhausted', starts: 2 });
    // Not taken: the claim stays as the second start left it.
    expect((await harness.service.get(approval.id))?.resumption).toMatchObject({ state: 'resuming', by: 'process-2', starts: 2 });
  });
});

describe('approvals service: cancel (the turn was cancelled)', () => {
  it('closes a pending approval once, audits it, leaves the pending list, and a later decision is refused; a decided one is left as it is', async () => {
    const { service, audit } = await createHarness();
    const pending = await service.open(requestInput());
    const cancelled = await service.cancel(pending.id, 'caller');
    expect(cancelled).toMatchObject({ id: pending.id, status: 'cancelled', decidedBy: 'caller', decidedAt: '2025-03-01T12:00:00.000Z' });
    expect(await service.cancel(pending.id, 'caller')).toBeUndefined();
    expect(await service.listDecidableBy('1', 'telegram')).toEqual([]);
    expect((await audit.recent(1))[0]).toMatchObject({ kind: 'approval-cancelled', approvalId: pending.id, outcome: 'cancelled', decidedBy: 'caller' });
    const press = await service.decide({ id: pending.id, ...decider('1') });
    expect(press).toMatchObject({ ok: false, code: 'already-decided', approval: { status: 'cancelled' } });

    const approved = await service.open(requestInput());
    await service.decide({ id: approved.id, ...decider('1') });
    expect(await service.cancel(approved.id, 'caller')).toBeUndefined();
    expect((await service.get(approved.id))?.status).toBe('approved');
  });
});
