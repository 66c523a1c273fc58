import { describe, expect, it } from 'vitest';
import { scopeOfSuspendedTurn } from '../../../src/agent/scope-of-suspended-turn.js';
import type { SuspendedTurn } from '../../../src/approvals/suspended-turn.js';
import { untouchedServices } from '../registry/registry-fixtures.js';

const channelTools = new Set(['message', 'memory', 'read_file', 'exec']);
const deps = { visibleToolsFor: () => channelTools, servicesFor: () => untouchedServices };
const suspended: SuspendedTurn = {
  kind: 'approval',
  id: 'k3m9',
  sessionKey: 'telegram:1001/sub:fix-tests:a1',
  traceId: 'trace-1',
  target: { channel: 'telegram', chatId: '1001' },
  origin: 'user',
  unattended: false,
  userId: '42',
  userName: 'Bob',
  createdAt: '2026-12-02T08:00:00.000Z',
  call: { id: 'call-1', name: 'exec', argumentsText: '{"command":"npm test"}' },
  remainingCalls: [],
};

describe('scopeOfSuspendedTurn', () => {
  it('gives a turn a person started its channel\'s tools again', () => {
    const scope = scopeOfSuspendedTurn(deps, suspended);
    expect(scope.visibleTools).toBe(channelTools);
    expect(scope.allowedTools).toBeUndefined();
    expect(scope.delegationChain).toBeUndefined();
  });

  it('keeps a sub-task\'s narrowing and chain across its suspension, never its channel\'s full set', () => {
    const delegationChain = [{ name: 'fix-tests', parentExecutionId: 'exec-root', agentId: 'echo' }];
    const scope = scopeOfSuspendedTurn(deps, { ...suspended, allowedTools: ['read_file', 'exec', 'web_fetch'], delegationChain });
    // web_fetch was allowed but the channel no longer shows it: the narrower of the two wins.
    expect([...scope.visibleTools]).toEqual(['read_file', 'exec']);
    expect(scope.allowedTools).toEqual(['read_file', 'exec', 'web_fetch']);
    expect(scope.delegationChain).toEqual(delegationChain);
    expect(scope.runKey).toBe('resume:k3m9');
  });
});
