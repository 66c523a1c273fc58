import { afterEach, describe, expect, it } from 'vitest';
import { createTurnDelegation, unbounded } from '../../../src/agent/create-turn-delegation.js';
import { executeCalls } from '../../../src/agent/execute-calls.js';
import { delegateTool } from '../../../tools/delegate-tool.js';
import { createRegistryHarness, type RegistryHarness } from '../registry/registry-fixtures.js';
import { countingTool, scopeFor, silentLogger, toolCall } from '../registry/turn-fixtures.js';

let harness: RegistryHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function setup(options: { readonly maxParallel?: number; readonly tokens?: number } = {}) {
  const note = countingTool('note');
  const exec = countingTool('exec', { risk: 'exec', approval: 'always' });
  harness = await createRegistryHarness({ tools: [note.tool, exec.tool, delegateTool] });
  const scope = scopeFor(['note', 'exec', 'delegate']);
  const delegation = createTurnDelegation({
    scope,
    budgets: { perTurn: options.tokens === undefined ? undefined : { tokens: options.tokens } },
    turnTimeoutMs: 60_000,
    limits: { maxDepth: 2, maxParallel: options.maxParallel ?? 3 },
    agentId: 'echo-agent',
  });
  return { note, scope, delegation, registry: harness.registry, logger: await silentLogger() };
}

const delegate = (name: string, tools: string[], limits: Record<string, number> = {}) => toolCall('delegate', { name, instructions: `do ${name}`, tools, limits });

describe('executeCalls with delegate calls', () => {
  it('grants side-by-side sub-tasks with the asked tools and slices, and queues a later call behind them', async () => {
    const { note, scope, delegation, registry, logger } = await setup({ tokens: 1000 });
    const calls = [delegate('lint', ['note'], { tokens: 300 }), delegate('test', ['exec'], { tokens: 500 }), toolCall('note', { text: 'after' })];
    const outcome = await executeCalls({ registry, scope, calls, repeats: new Map(), logger, delegation });
    expect(outcome.results).toEqual([]);
    expect(outcome.suspension?.kind).toBe('delegation');
    if (outcome.suspension?.kind !== 'delegation') throw new Error('not suspended on sub-tasks');
    expect(outcome.suspension.call.id).toBe(calls[0]?.id);
    expect(outcome.suspension.remaining.map((call) => call.id)).toEqual([calls[2]?.id]);
    expect(outcome.suspension.subTasks.map((subTask) => [subTask.name, subTask.allowedTools, subTask.slice.tokens])).toEqual([
      ['lint', ['note'], 300],
      ['test', ['exec'], 500],
    ]);
    const [lint] = outcome.suspension.subTasks;
    expect(lint?.sessionKey).toBe(`telegram:1001/sub:lint:${lint?.id}`);
    expect(lint?.chain).toEqual([{ name: 'lint', parentExecutionId: expect.any(String), agentId: 'echo-agent' }]);
    // The slices are held: what is left is the rest, so a third child can never take more than the parent had.
    expect(delegation.allowance.remaining().tokens).toBe(200);
    expect(note.runs).toEqual([]);
  });

  it('shares a unit the model left out evenly among the sub-tasks of the batch', async () => {
    const { scope, delegation, registry, logger } = await setup({ tokens: 900 });
    const outcome = await executeCalls({ registry, scope, calls: [delegate('a', []), delegate('b', []), delegate('c', [], { tokens: 100 })], repeats: new Map(), logger, delegation });
    if (outcome.suspension?.kind !== 'delegation') throw new Error('not suspended on sub-tasks');
    expect(outcome.suspension.subTasks.map((subTask) => subTask.slice.tokens)).toEqual([300, 300, 100]);
    expect(delegation.allowance.remaining().tokens).toBe(200);
  });

  it('refuses a sub-task asking for a tool the turn cannot see, naming it, and starts nothing', async () => {
    const { scope, delegation, registry, logger } = await setup();
    const outcome = await executeCalls({ registry, scope: { ...scope, allowedTools: ['note', 'delegate'] }, calls: [delegate('sneaky', ['note', 'exec'])], repeats: new Map(), logger, delegation });
    expect(outcome.suspension).toBeUndefined();
    expect(outcome.results[0]?.content).toMatch(/^Error \(refused\): The sub-task was not started: it asked for tools this conversation cannot use \(exec\)/);
    expect(delegation.allowance.remaining().tokens).toBe(unbounded);
  });

  it('refuses the sub-task past the fan-out limit and the one past the depth limit', async () => {
    const { scope, delegation, registry, logger } = await setup({ maxParallel: 1 });
    const wide = await executeCalls({ registry, scope, calls: [delegate('one', []), delegate('two', [])], repeats: new Map(), logger, delegation });
    expect(wide.suspension?.kind === 'delegation' ? wide.suspension.subTasks.map((subTask) => subTask.name) : []).toEqual(['one']);
    expect(wide.results[0]?.content).toContain('at most 1 sub-tasks may run at the same time');

    const chain = [
      { name: 'a', parentExecutionId: 'e1', agentId: 'echo-agent' },
      { name: 'b', parentExecutionId: 'e2', agentId: 'echo-agent' },
    ];
    const deep = await executeCalls({ registry, scope: { ...scope, delegationChain: chain, allowedTools: ['note', 'delegate'] }, calls: [delegate('c', ['note'])], repeats: new Map(), logger, delegation });
    expect(deep.suspension).toBeUndefined();
    expect(deep.results[0]?.content).toContain('sub-tasks may only be 2 levels deep');
  });

  it('refuses every sub-task in a run built without delegation', async () => {
    const { scope, registry, logger } = await setup();
    const outcome = await executeCalls({ registry, scope, calls: [delegate('orphan', [])], repeats: new Map(), logger });
    expect(outcome.suspension).toBeUndefined();
    expect(outcome.results[0]?.content).toContain('sub-tasks are not available here');
  });
});
