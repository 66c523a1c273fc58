import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decideToolAccess } from '../../../src/policy/decide-tool-access.js';
import { createDelegationBudget, type DelegationAmounts, delegationUnits } from '../../../src/policy/delegation-budget.js';
import { type DelegatingTurn, type DelegationLimits, planDelegation, toolsVisibleTo } from '../../../src/policy/plan-delegation.js';

// Random delegation trees under random tool policies, run through the real narrowing functions
// (planDelegation, createDelegationBudget, decideToolAccess): no descendant may call a tool its root
// could not see, and all of them together never spend more than the root had.

const universe = ['message', 'ask_user', 'memory', 'todo', 'web_fetch', 'read_file', 'write_file', 'edit_file', 'exec', 'delegate', 'mcp__deploy'];

type TaskNode = {
  readonly tools: readonly string[];
  /** Ask only for tools the parent sees (most sub-tasks), or exactly `tools`, which may reach past them. */
  readonly staysInside: boolean;
  readonly limits: Partial<DelegationAmounts>;
  /** Percent of what remains this turn spends itself, before and after its children. */
  readonly spendBefore: number;
  readonly spendAfter: number;
  /** Whether this child's parent waits for it before starting the next one. */
  readonly awaited: boolean;
  readonly children: readonly TaskNode[];
};

const limitFields = { tokens: fc.integer({ min: -5, max: 5_000 }), modelCalls: fc.integer({ min: 0, max: 20 }), seconds: fc.integer({ min: 0, max: 600 }) };
// Mostly every unit set, so siblings leave each other something and fan-out is exercised; sometimes a unit
// left out (it takes all that remains).
const limitsArbitrary = fc.oneof({ weight: 3, arbitrary: fc.record(limitFields) }, { weight: 1, arbitrary: fc.record(limitFields, { requiredKeys: [] }) });
const { node: treeArbitrary } = fc.letrec<{ node: TaskNode }>((tie) => ({
  node: fc.record({
    tools: fc.subarray(universe),
    staysInside: fc.boolean(),
    limits: limitsArbitrary,
    spendBefore: fc.integer({ min: 0, max: 100 }),
    spendAfter: fc.integer({ min: 0, max: 100 }),
    awaited: fc.boolean(),
    children: fc.oneof({ depthSize: 'small' }, fc.constant([]), fc.array(tie('node'), { maxLength: 4 })),
  }),
}));
const rootArbitrary = fc.record({
  visibleTools: fc.subarray(universe),
  allowedTools: fc.option(fc.subarray(universe), { nil: undefined }),
  total: fc.record({ tokens: fc.integer({ min: 0, max: 20_000 }), modelCalls: fc.integer({ min: 1, max: 30 }), seconds: fc.integer({ min: 1, max: 900 }) }),
  limits: fc.record({ maxDepth: fc.integer({ min: 0, max: 4 }), maxParallel: fc.integer({ min: 1, max: 4 }) }),
  tree: treeArbitrary,
});

type Observed = { spent: Record<string, number>; maxDepthSeen: number; toolViolations: string[]; parallelViolations: number; plans: { granted: number; refused: number } };

function percentOf(amounts: DelegationAmounts, percent: number): DelegationAmounts {
  return { tokens: Math.floor((amounts.tokens * percent) / 100), modelCalls: Math.floor((amounts.modelCalls * percent) / 100), seconds: Math.floor((amounts.seconds * percent) / 100) };
}

/** Runs one turn and its sub-tasks; returns what the turn and its descendants used. */
function runTurn(input: {
  turn: DelegatingTurn;
  node: TaskNode;
  rootTools: ReadonlySet<string>;
  conversationTools: ReadonlySet<string>;
  limits: DelegationLimits;
  observed: Observed;
}): void {
  const { turn, node, rootTools, conversationTools, limits, observed } = input;
  observed.maxDepthSeen = Math.max(observed.maxDepthSeen, turn.chain.length);
  // The turn's model tries every tool; the registry's policy check decides, with the child's scope.
  for (const name of universe) {
    const facts = { name, risk: 'write' as const, capabilities: [] };
    const asOwnSet = decideToolAccess(facts, { visibleTools: turn.visibleTools, allowedTools: turn.allowedTools, network: 'allow', capabilityRules: {} });
    const inConversation = decideToolAccess(facts, { visibleTools: conversationTools, allowedTools: turn.allowedTools, network: 'allow', capabilityRules: {} });
    for (const decision of [asOwnSet, inConversation]) {
      if (decision.decision !== 'deny' && !rootTools.has(name)) observed.toolViolations.push(`${turn.chain.map((link) => link.name).join('/')}: ${name}`);
    }
  }
  const spendOwn = (percent: number) => {
    const amounts = percentOf(turn.budget.remaining(), percent);
    if (turn.budget.spend(amounts).kind === 'spent') for (const unit of delegationUnits) observed.spent[unit] = (observed.spent[unit] ?? 0) + amounts[unit];
  };
  spendOwn(node.spendBefore);
  const running: { slice: DelegationAmounts; budget: ReturnType<typeof createDelegationBudget> }[] = [];
  const finish = (child: (typeof running)[number]) => {
    const left = child.budget.remaining();
    const used = { tokens: child.slice.tokens - left.tokens, modelCalls: child.slice.modelCalls - left.modelCalls, seconds: child.slice.seconds - left.seconds };
    turn.budget.settleSlice(child.slice, used);
  };
  node.children.forEach((childNode, index) => {
    const parentSees = toolsVisibleTo(turn);
    const tools = childNode.staysInside ? childNode.tools.filter((name) => parentSees.has(name)) : childNode.tools;
    const plan = planDelegation({ ...turn, runningChildren: running.length }, { name: `t${turn.chain.length}-${index}`, tools, limits: childNode.limits }, limits);
    observed.plans[plan.kind] += 1;
    if (plan.kind === 'refused') return;
    if (running.length + 1 > limits.maxParallel) observed.parallelViolations += 1;
    const budget = createDelegationBudget(plan.grant.slice);
    const child = { slice: plan.grant.slice, budget };
    running.push(child);
    runTurn({
      turn: { executionId: `e${index}`, agentId: 'echo', visibleTools: plan.grant.visibleTools, allowedTools: plan.grant.allowedTools, chain: plan.grant.chain, runningChildren: 0, budget },
      node: childNode,
      rootTools,
      conversationTools,
      limits,
      observed,
    });
    if (childNode.awaited) finish(running.pop() ?? child);
  });
  for (const child of running) finish(child);
  spendOwn(node.spendAfter);
}

describe('delegation narrows authority (property)', () => {
  it('no descendant runs a tool its root could not see, and all of them spend no more than the root had', () => {
    const totals = { granted: 0, refused: 0 };
    fc.assert(
      fc.property(rootArbitrary, (root) => {
        const conversationTools = new Set(root.visibleTools);
        const rootTurn: DelegatingTurn = {
          executionId: 'root',
          agentId: 'echo',
          visibleTools: conversationTools,
          allowedTools: root.allowedTools,
          chain: [],
          runningChildren: 0,
          budget: createDelegationBudget(root.total),
        };
        const rootTools = toolsVisibleTo(rootTurn);
        const observed: Observed = { spent: {}, maxDepthSeen: 0, toolViolations: [], parallelViolations: 0, plans: totals };
        runTurn({ turn: rootTurn, node: root.tree, rootTools, conversationTools, limits: root.limits, observed });
        expect(observed.toolViolations).toEqual([]);
        expect(observed.parallelViolations).toBe(0);
        expect(observed.maxDepthSeen).toBeLessThanOrEqual(root.limits.maxDepth);
        for (const unit of delegationUnits) expect(observed.spent[unit] ?? 0).toBeLessThanOrEqual(root.total[unit]);
      }),
      { numRuns: 500 },
    );
    // The trees exercised both paths: sub-tasks that ran and sub-tasks refused before they started.
    expect(totals.granted).toBeGreaterThan(100);
    expect(totals.refused).toBeGreaterThan(100);
  });
});
