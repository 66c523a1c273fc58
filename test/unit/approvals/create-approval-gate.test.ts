import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApprovalGate, type ApprovalGateOptions } from '../../../src/approvals/create-approval-gate.js';
import { createGrantStore, type Grant, type GrantStore } from '../../../src/approvals/grants.js';
import type { Risk } from '../../../src/events/risk.js';
import type { ApprovalHookRequest } from '../../../src/registry/approval-hook.js';
import { hashToolCall } from '../../../src/registry/canonical-json.js';
import type { ApprovalMode } from '../../../src/registry/define-tool.js';
import { createStore } from '../../../src/store/create-store.js';
import type { Store } from '../../../src/store/key-value-namespace.js';
import { createTemporaryFolder } from '../registry/registry-fixtures.js';

const folder = createTemporaryFolder('gate');
let store: Store;
let sessionCounter = 0;
beforeAll(async () => {
  store = await createStore({ dataDir: folder.path });
});
afterAll(async () => {
  await store.close();
  folder.remove();
});

/** A fresh grant store per test: namespaces unique to it. */
function freshGrants(): GrantStore {
  sessionCounter += 1;
  return createGrantStore(store.namespace<Grant[]>(`grants-session-${sessionCounter}`), store.namespace<Grant[]>(`grants-always-${sessionCounter}`));
}

function gateWith(overrides: Partial<ApprovalGateOptions> = {}) {
  return createApprovalGate({ hardBlocks: [], require: [], autoApprove: [], grants: freshGrants(), canAskWhenUnattended: () => false, ...overrides });
}

function request(toolName: string, risk: Risk, approval: ApprovalMode, overrides: Partial<ApprovalHookRequest> = {}): ApprovalHookRequest {
  const input = overrides.input ?? { command: 'ls' };
  return {
    toolName,
    risk,
    approval,
    input,
    argumentsHash: hashToolCall(toolName, input),
    sessionKey: 'telegram:1',
    userId: '42',
    channel: 'telegram',
    origin: 'user',
    unattended: false,
    approvedActions: [],
    ...overrides,
  };
}

const unattended = { origin: 'schedule' as const, unattended: true };
const blockRmRf = (toolName: string, input: unknown) => (toolName === 'exec' && (input as { command?: string }).command === 'rm -rf /' ? 'it deletes everything' : undefined);

describe('createApprovalGate: 1. hard blocks', () => {
  it('denies a hard-blocked call as never approvable', async () => {
    const gate = gateWith({ hardBlocks: [blockRmRf] });
    expect(await gate(request('exec', 'exec', 'always', { input: { command: 'rm -rf /' } }))).toEqual({
      decision: 'deny',
      reason: 'Refused and cannot be approved: it deletes everything',
    });
  });

  it('beats a person approval bound to the exact call, autoApprove, never and grants', async () => {
    const grants = freshGrants();
    const input = { command: 'rm -rf /' };
    const hash = hashToolCall('exec', input);
    await grants.add('session', 'telegram:1', { toolName: 'exec', argumentsHash: hash, summary: 's', grantedBy: 'a', grantedAt: 'now' });
    const gate = gateWith({ hardBlocks: [blockRmRf], autoApprove: ['exec'], grants });
    const decision = await gate(request('exec', 'exec', 'never', { input, approvedActions: [hash] }));
    expect(decision.decision).toBe('deny');
  });

  it('asks every block in turn; the first that objects decides', async () => {
    const gate = gateWith({ hardBlocks: [() => undefined, () => 'second block'] });
    expect(await gate(request('exec', 'exec', 'always'))).toEqual({ decision: 'deny', reason: 'Refused and cannot be approved: second block' });
  });
});

describe('createApprovalGate: 2. approvedActions', () => {
  it('allows a call whose exact hash a person approved, even an exec in an unattended turn', async () => {
    const request1 = request('exec', 'exec', 'always', unattended);
    const gate = gateWith();
    expect(await gate({ ...request1, approvedActions: [request1.argumentsHash] })).toEqual({ decision: 'allow', source: 'approved' });
  });

  it('does not allow other arguments than the ones approved', async () => {
    const approved = request('exec', 'exec', 'always', { input: { command: 'ls' } });
    const other = request('exec', 'exec', 'always', { input: { command: 'ls -la' }, approvedActions: [approved.argumentsHash] });
    expect((await gateWith()(other)).decision).toBe('ask');
  });
});

describe('createApprovalGate: 3. unattended turns', () => {
  it.each(['exec', 'dangerous'] as const)('denies %s risk, even with autoApprove', async (risk) => {
    const decision = await gateWith({ autoApprove: ['tool'], canAskWhenUnattended: () => true })(request('tool', risk, 'never', unattended));
    expect(decision).toEqual({ decision: 'deny', reason: `"tool" (${risk}) cannot run in an unattended schedule turn without an approval bound to it.` });
  });

  it.each(['read_only', 'write'] as const)('runs a %s tool that does not need to ask', async (risk) => {
    expect(await gateWith()(request('memory', risk, 'by-risk', { ...unattended, origin: 'system' }))).toEqual({ decision: 'allow', source: 'unattended-policy' });
  });

  it("denies an 'always' tool when cards cannot reach an approver", async () => {
    const decision = await gateWith({ canAskWhenUnattended: () => false })(request('schedule_task', 'write', 'always', unattended));
    expect(decision).toEqual({ decision: 'deny', reason: '"schedule_task" needs a person\'s approval, and nobody is watching this turn (a scheduled task).' });
  });

  it("asks for an 'always' tool when cards can reach approvers of that channel", async () => {
    const channels: string[] = [];
    const gate = gateWith({
      canAskWhenUnattended: (channel) => {
        channels.push(channel);
        return true;
      },
    });
    expect(await gate(request('schedule_task', 'write', 'always', unattended))).toEqual({ decision: 'ask', reason: 'this tool always asks' });
    expect(channels).toEqual(['telegram']);
  });

  it('denies a tool listed in approvals.require when nobody can be asked', async () => {
    expect((await gateWith({ require: ['memory'] })(request('memory', 'write', 'never', unattended))).decision).toBe('deny');
  });
});

describe('createApprovalGate: 4. the approval setting and config', () => {
  it('autoApprove lets an always tool run without asking', async () => {
    expect(await gateWith({ autoApprove: ['exec'] })(request('exec', 'exec', 'always'))).toEqual({ decision: 'allow', source: 'auto-approve' });
  });

  it('autoApprove wins over approvals.require', async () => {
    expect((await gateWith({ autoApprove: ['memory'], require: ['memory'] })(request('memory', 'write', 'never'))).decision).toBe('allow');
  });

  it('autoApprove also wins over a capability rule that asks', async () => {
    expect((await gateWith({ autoApprove: ['web_fetch'] })(request('web_fetch', 'read_only', 'never', { policyAsks: 'capability asks' }))).decision).toBe('allow');
  });

  it('approvals.require makes a never tool ask', async () => {
    expect(await gateWith({ require: ['memory'] })(request('memory', 'write', 'never'))).toEqual({ decision: 'ask', reason: 'approvals.require lists this tool' });
  });

  it('a capability rule that asks makes a never tool ask', async () => {
    expect(await gateWith()(request('web_fetch', 'read_only', 'never', { policyAsks: 'The capability "network.outbound" needs approval by policy.' }))).toEqual({
      decision: 'ask',
      reason: 'The capability "network.outbound" needs approval by policy.',
    });
  });

  it('never runs without asking, even for exec risk in an attended turn', async () => {
    expect(await gateWith()(request('exec', 'exec', 'never'))).toEqual({ decision: 'allow', source: 'policy' });
  });

  it('always asks, even for read_only risk', async () => {
    expect(await gateWith()(request('peek', 'read_only', 'always'))).toEqual({ decision: 'ask', reason: 'this tool always asks' });
  });

  it.each([
    ['read_only', 'allow'],
    ['write', 'allow'],
    ['exec', 'ask'],
    ['dangerous', 'ask'],
  ] as const)('by-risk: %s → %s', async (risk, expected) => {
    const decision = await gateWith()(request('tool', risk, 'by-risk'));
    expect(decision.decision).toBe(expected);
    if (decision.decision === 'ask') expect(decision.reason).toBe(`its risk is ${risk}`);
  });
});

describe('createApprovalGate: 5. grants', () => {
  const grantFor = (toolName: string, input: unknown): Grant => ({ toolName, argumentsHash: hashToolCall(toolName, input), summary: 's', grantedBy: 'alice', grantedAt: 'now' });

  it('a session grant allows the same tool and arguments in that session only', async () => {
    const grants = freshGrants();
    await grants.add('session', 'telegram:1', grantFor('exec', { command: 'ls' }));
    const gate = gateWith({ grants });
    expect(await gate(request('exec', 'exec', 'always'))).toEqual({ decision: 'allow', source: 'grant:session' });
    expect((await gate(request('exec', 'exec', 'always', { sessionKey: 'telegram:2' }))).decision).toBe('ask');
  });

  it('a session grant does not cover other arguments', async () => {
    const grants = freshGrants();
    await grants.add('session', 'telegram:1', grantFor('exec', { command: 'ls' }));
    expect((await gateWith({ grants })(request('exec', 'exec', 'always', { input: { command: 'ls /root' } }))).decision).toBe('ask');
  });

  it('an always grant allows the same tool and arguments for that user in any session', async () => {
    const grants = freshGrants();
    await grants.add('always', 'telegram:42', grantFor('exec', { command: 'ls' }));
    const gate = gateWith({ grants });
    expect(await gate(request('exec', 'exec', 'always', { sessionKey: 'telegram:99' }))).toEqual({ decision: 'allow', source: 'grant:always' });
    expect((await gate(request('exec', 'exec', 'always', { input: { command: 'whoami' } }))).decision).toBe('ask');
    expect((await gate(request('exec', 'exec', 'always', { userId: '7' }))).decision).toBe('ask');
    expect((await gate(request('exec', 'exec', 'always', { channel: 'wechat' }))).decision).toBe('ask');
  });

  it('a grant for one tool does not cover another tool with the same arguments', async () => {
    const grants = freshGrants();
    await grants.add('always', 'telegram:42', grantFor('exec', { command: 'ls' }));
    expect((await gateWith({ grants })(request('other', 'exec', 'always'))).decision).toBe('ask');
  });
});

describe('createApprovalGate: approvals.mode', () => {
  it('smart marks only attended exec and write calls the tool itself asks about as reviewable', async () => {
    const gate = gateWith({ mode: 'smart', require: ['deploy'] });
    expect(await gate(request('exec', 'exec', 'always'))).toEqual({ decision: 'ask', reason: 'this tool always asks', reviewable: true });
    expect(await gate(request('schedule_task', 'write', 'always'))).toMatchObject({ decision: 'ask', reviewable: true });
    // dangerous, approvals.require, a capability rule that asks, and manual mode: a person, never the reviewer.
    expect(await gate(request('nuke', 'dangerous', 'by-risk'))).toEqual({ decision: 'ask', reason: 'its risk is dangerous' });
    expect(await gate(request('deploy', 'exec', 'by-risk'))).toEqual({ decision: 'ask', reason: 'approvals.require lists this tool' });
    expect(await gate(request('exec', 'exec', 'always', { policyAsks: 'capability rule' }))).toEqual({ decision: 'ask', reason: 'capability rule' });
    expect(await gateWith()(request('exec', 'exec', 'always'))).toEqual({ decision: 'ask', reason: 'this tool always asks' });
  });

  it('smart never marks a hard-blocked call or an unattended one', async () => {
    const gate = gateWith({ mode: 'smart', hardBlocks: [blockRmRf], canAskWhenUnattended: () => true });
    expect(await gate(request('exec', 'exec', 'always', { input: { command: 'rm -rf /' } }))).toMatchObject({ decision: 'deny' });
    expect(await gate(request('schedule_task', 'write', 'always', unattended))).toEqual({ decision: 'ask', reason: 'this tool always asks' });
  });

  it('off lets through what only the tool asks about; hard blocks, approvals.require and unattended rules stay', async () => {
    const gate = gateWith({ mode: 'off', require: ['deploy'], hardBlocks: [blockRmRf] });
    expect(await gate(request('exec', 'exec', 'always'))).toEqual({ decision: 'allow', source: 'approvals-off' });
    expect(await gate(request('exec', 'exec', 'always', { input: { command: 'rm -rf /' } }))).toMatchObject({ decision: 'deny' });
    expect(await gate(request('deploy', 'exec', 'by-risk'))).toMatchObject({ decision: 'ask' });
    expect(await gate(request('exec', 'exec', 'always', unattended))).toMatchObject({ decision: 'deny' });
  });
});
