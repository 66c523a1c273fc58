import { describe, expect, it } from 'vitest';
import { createDelegationBudget } from '../../../src/policy/delegation-budget.js';
import { describeDelegationChain, delegationSessionKey } from '../../../src/policy/delegation-chain.js';
import { type DelegatingTurn, defaultDelegationLimits, describeDelegationRefusal, planDelegation, toolsVisibleTo } from '../../../src/policy/plan-delegation.js';

const messaging = ['message', 'ask_user', 'session_search', 'memory', 'todo', 'schedule_task', 'list_tasks', 'cancel_task', 'web_fetch'];
const parent = (overrides: Partial<DelegatingTurn> = {}): DelegatingTurn => ({
  executionId: 'exec-parent',
  agentId: 'echo',
  visibleTools: new Set(messaging),
  chain: [],
  runningChildren: 0,
  budget: createDelegationBudget({ tokens: 10_000, modelCalls: 10, seconds: 300 }),
  ...overrides,
});

describe('planDelegation', () => {
  it('refuses a child asking for exec from a parent on messaging, naming the tool, and holds nothing', () => {
    const turn = parent();
    const plan = planDelegation(turn, { name: 'fix-tests', tools: ['read_file', 'exec', 'memory'], limits: { tokens: 500 } }, defaultDelegationLimits);
    expect(plan).toEqual({ kind: 'refused', refusal: { kind: 'tools-not-visible', tools: ['read_file', 'exec'] } });
    expect(turn.budget.remaining()).toEqual({ tokens: 10_000, modelCalls: 10, seconds: 300 });
    if (plan.kind === 'refused') expect(describeDelegationRefusal(plan.refusal)).toContain('(read_file, exec)');
  });

  it('grants exactly the asked tools, a slice of what remains and the chain', () => {
    const turn = parent();
    const plan = planDelegation(turn, { name: 'fix-tests', tools: ['memory', 'web_fetch', 'memory'], limits: { tokens: 4_000, modelCalls: 50 } }, defaultDelegationLimits);
    expect(plan.kind).toBe('granted');
    if (plan.kind !== 'granted') return;
    expect(plan.grant.allowedTools).toEqual(['memory', 'web_fetch']);
    expect([...plan.grant.visibleTools]).toEqual(['memory', 'web_fetch']);
    // 50 model calls asked, 10 left: the slice is capped; seconds not asked: all that remains.
    expect(plan.grant.slice).toEqual({ tokens: 4_000, modelCalls: 10, seconds: 300 });
    expect(turn.budget.remaining()).toEqual({ tokens: 6_000, modelCalls: 0, seconds: 0 });
    expect(plan.grant.chain).toEqual([{ name: 'fix-tests', parentExecutionId: 'exec-parent', agentId: 'echo' }]);
  });

  it('narrows by the parent allow-list when the parent is itself a sub-task', () => {
    const turn = parent({ allowedTools: ['memory', 'exec'], chain: [{ name: 'outer', parentExecutionId: 'root', agentId: 'echo' }] });
    expect([...toolsVisibleTo(turn)]).toEqual(['memory']);
    expect(planDelegation(turn, { name: 'inner', tools: ['todo'], limits: {} }, defaultDelegationLimits)).toEqual({
      kind: 'refused',
      refusal: { kind: 'tools-not-visible', tools: ['todo'] },
    });
  });

  it('refuses past the depth limit and past the parallel children', () => {
    const link = { name: 'a', parentExecutionId: 'x', agentId: 'echo' };
    expect(planDelegation(parent({ chain: [link, link] }), { name: 'b', tools: [], limits: {} }, defaultDelegationLimits)).toEqual({
      kind: 'refused',
      refusal: { kind: 'too-deep', maxDepth: 2 },
    });
    expect(planDelegation(parent({ chain: [link] }), { name: 'b', tools: [], limits: {} }, defaultDelegationLimits).kind).toBe('granted');
    expect(planDelegation(parent({ runningChildren: 3 }), { name: 'b', tools: [], limits: {} }, defaultDelegationLimits)).toEqual({
      kind: 'refused',
      refusal: { kind: 'too-many-children', maxParallel: 3 },
    });
  });

  it('refuses a child when the parent has nothing left, and gives back what a child did not use', () => {
    const turn = parent();
    const first = planDelegation(turn, { name: 'a', tools: [], limits: {} }, defaultDelegationLimits);
    expect(planDelegation(turn, { name: 'b', tools: [], limits: {} }, defaultDelegationLimits)).toEqual({
      kind: 'refused',
      refusal: { kind: 'budget-exhausted', units: ['tokens', 'modelCalls', 'seconds'] },
    });
    if (first.kind !== 'granted') throw new Error('expected a grant');
    turn.budget.settleSlice(first.grant.slice, { tokens: 2_500, modelCalls: 3, seconds: 40 });
    expect(turn.budget.remaining()).toEqual({ tokens: 7_500, modelCalls: 7, seconds: 260 });
  });
});

describe('delegation chain', () => {
  it('names the chain nearest first and keys the child session under its parent', () => {
    expect(describeDelegationChain([])).toBeUndefined();
    expect(describeDelegationChain([{ name: 'fix-tests', parentExecutionId: 'r', agentId: 'echo' }])).toBe('via sub-task fix-tests of your request');
    expect(
      describeDelegationChain([
        { name: 'fix-tests', parentExecutionId: 'r', agentId: 'echo' },
        { name: 'lint', parentExecutionId: 'c', agentId: 'echo' },
      ]),
    ).toBe('via sub-task lint of sub-task fix-tests of your request');
    expect(delegationSessionKey({ parentSessionKey: 'telegram:42', name: 'fix-tests', id: 'k3m9' })).toBe('telegram:42/sub:fix-tests:k3m9');
  });
});
