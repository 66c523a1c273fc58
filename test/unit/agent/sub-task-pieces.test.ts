import { describe, expect, it } from 'vitest';
import { createTurnBudget } from '../../../src/agent/create-turn-budget.js';
import { createTurnDelegation, subTaskCeiling, unbounded } from '../../../src/agent/create-turn-delegation.js';
import { subTaskEndOf } from '../../../src/agent/end-sub-task-turn.js';
import { allowanceAfterSubTasks, haveSubTasksEnded, settleSubTask, subTaskResultText } from '../../../src/agent/settle-sub-task.js';
import type { PendingSubTask } from '../../../src/approvals/pending-sub-task.js';
import type { SuspendedDelegation, SuspendedTurn } from '../../../src/approvals/suspended-turn.js';
import { messagesFor } from '../../../src/i18n/messages.js';
import type { KeyValueNamespace } from '../../../src/store/key-value-namespace.js';
import { scopeFor, silentLogger } from '../registry/turn-fixtures.js';

const slice = { tokens: 100, modelCalls: 2, seconds: 30 };

function subTask(id: string, overrides: Partial<PendingSubTask> = {}): PendingSubTask {
  return { id, callId: `call-${id}`, name: `task-${id}`, instructions: 'do it', allowedTools: ['note'], slice, chain: [{ name: `task-${id}`, parentExecutionId: 'x', agentId: 'echo-agent' }], sessionKey: `s/sub:task-${id}:${id}`, ...overrides };
}

function parentWith(subTasks: readonly PendingSubTask[]): SuspendedDelegation {
  return { kind: 'delegation', id: 'parent', sessionKey: 'telegram:1', traceId: 't', target: { channel: 'telegram', chatId: '1' }, origin: 'user', unattended: false, userId: '1', userName: 'Ann', createdAt: new Date(0).toISOString(), call: { id: 'call-a', name: 'delegate', argumentsText: '{}' }, remainingCalls: [], subTasks };
}

/** A one-key store namespace in memory. */
function memoryNamespace(initial: SuspendedTurn): KeyValueNamespace<SuspendedTurn> {
  let value: SuspendedTurn | undefined = initial;
  return {
    get: async () => value,
    update: async (_key: string, updater: (current: SuspendedTurn | undefined) => SuspendedTurn | undefined) => {
      value = updater(value);
      return value;
    },
  } as unknown as KeyValueNamespace<SuspendedTurn>;
}

describe('createTurnDelegation', () => {
  it('is the smaller of the per-turn ceiling, the turn timeout and a sub-task\'s own slice; a unit nothing limits is unbounded', () => {
    const person = createTurnDelegation({ scope: {}, budgets: { perTurn: { tokens: 500 } }, turnTimeoutMs: 120_000, limits: { maxDepth: 2, maxParallel: 3 }, agentId: 'a' });
    expect(person.allowance.total).toEqual({ tokens: 500, modelCalls: unbounded, seconds: 120 });
    const child = createTurnDelegation({ scope: { subTask: { parentSuspensionId: 'p', subTaskId: 's', slice } }, budgets: { perTurn: { tokens: 500 } }, turnTimeoutMs: 120_000, limits: { maxDepth: 2, maxParallel: 3 }, agentId: 'a' });
    expect(child.allowance.total).toEqual(slice);
  });

  it('gives a resumed run no more than its turn had left when it suspended', () => {
    const resumed = createTurnDelegation({ scope: { allowanceLeft: { tokens: 40, modelCalls: unbounded, seconds: 9 } }, budgets: { perTurn: { tokens: 500 } }, turnTimeoutMs: 120_000, limits: { maxDepth: 2, maxParallel: 3 }, agentId: 'a' });
    expect(resumed.allowance.total).toEqual({ tokens: 40, modelCalls: unbounded, seconds: 9 });
  });

  it('counts the wall time that passed before a slice is carved', () => {
    let clock = 0;
    const delegation = createTurnDelegation({ scope: {}, turnTimeoutMs: 60_000, limits: { maxDepth: 2, maxParallel: 3 }, agentId: 'a', now: () => clock });
    clock = 12_500;
    delegation.catchUpClock();
    expect(delegation.allowance.remaining().seconds).toBe(48);
  });
});

describe('createTurnBudget for a sub-task', () => {
  it('stops the sub-task\'s loop at its slice even with no budget configured', async () => {
    const budget = createTurnBudget(undefined, scopeFor([], { subTask: { parentSuspensionId: 'p', subTaskId: 's', slice } }));
    const request = { messages: [], tools: [] };
    expect(await budget?.beforeModelCall(request, 'm')).toEqual({});
    budget?.afterModelCall({ inputTokens: 10, cachedInputTokens: 0, outputTokens: 10 });
    budget?.afterModelCall({ inputTokens: 10, cachedInputTokens: 0, outputTokens: 10 });
    expect(await budget?.beforeModelCall(request, 'm')).toEqual({ stop: { kind: 'per-turn', measure: 'modelCalls', limit: 2 } });
    expect(createTurnBudget(undefined, scopeFor([]))).toBeUndefined();
  });

  it('gives a sub-task resumed after its card only what its slice had left, not the whole slice again', async () => {
    const scope = scopeFor([], { subTask: { parentSuspensionId: 'p', subTaskId: 's', slice }, allowanceLeft: { tokens: 100, modelCalls: 1, seconds: 5 } });
    expect(subTaskCeiling(scope)).toEqual({ tokens: 100, modelCalls: 1, seconds: 5 });
    const budget = createTurnBudget(undefined, scope);
    budget?.afterModelCall(undefined);
    expect(await budget?.beforeModelCall({ messages: [], tools: [] }, 'm')).toEqual({ stop: { kind: 'per-turn', measure: 'modelCalls', limit: 1 } });
  });
});

describe('settleSubTask', () => {
  it('records the first end only, and queues the parent once its last sub-task ended', async () => {
    const suspensions = memoryNamespace(parentWith([subTask('a'), subTask('b')]));
    const requested: string[] = [];
    const deps = { suspensions, logger: await silentLogger(), resumeRequests: { request: async (request: { suspensionId: string }) => requested.push(request.suspensionId) > 0, settled: () => undefined, isQueued: () => false } };
    await settleSubTask(deps, { parentSuspensionId: 'parent', subTaskId: 'a' }, { status: 'completed', text: 'first' });
    await settleSubTask(deps, { parentSuspensionId: 'parent', subTaskId: 'a' }, { status: 'failed', text: 'a re-run' });
    expect(requested).toEqual([]);
    await settleSubTask(deps, { parentSuspensionId: 'parent', subTaskId: 'b' }, { status: 'failed', text: 'it ran out of time' });
    expect(requested).toEqual(['parent']);
    const parent = (await suspensions.get('parent')) as SuspendedDelegation;
    expect(haveSubTasksEnded(parent)).toBe(true);
    expect(parent.subTasks.map((task) => subTaskResultText(task))).toEqual(['Sub-task task-a answered:\nfirst', 'Error (sub-task failed): sub-task task-b did not finish: it ran out of time']);
  });
});

describe('subTaskEndOf', () => {
  const deps = { messagesFor: () => messagesFor('en'), timezone: 'UTC' };
  it('hands the parent the answer, or says why the sub-task stopped', () => {
    expect(subTaskEndOf(deps, { channel: 'telegram' }, { status: 'completed', text: 'done', newMessages: [] }, false)).toEqual({ status: 'completed', text: 'done' });
    expect(subTaskEndOf(deps, { channel: 'telegram' }, { status: 'stopped', stop: { kind: 'per-turn', measure: 'modelCalls', limit: 2 }, newMessages: [] }, false)).toEqual({ status: 'failed', text: 'it reached its limit of modelCalls (2)' });
    expect(subTaskEndOf(deps, { channel: 'telegram' }, { status: 'model-failed', failure: { kind: 'timeout', message: 'x', retryable: true, provider: 'primary' }, newMessages: [] }, true)).toEqual({ status: 'failed', text: 'it ran out of time' });
  });
});

describe('the waiting notice', () => {
  it('names the chain and the sub-task\'s tools, in English and in Chinese', () => {
    expect(messagesFor('en').subTaskWaiting(['fix-tests', 'lint'], ['exec'])).toContain('sub-task lint of sub-task fix-tests of your request (it may use: exec)');
    expect(messagesFor('zh-CN').subTaskWaiting(['fix-tests'], ['read_file', 'exec'])).toContain('子任务 fix-tests（可用的工具：read_file、exec）');
    expect(messagesFor('en').subTaskWaiting(['quiet'], [])).toContain('it may use: no tools');
  });
});

describe('allowanceAfterSubTasks', () => {
  it('gives a resuming parent what it had left plus what its sub-tasks did not use, never more than their slices', () => {
    const parent = {
      ...parentWith([subTask('a', { unused: { tokens: 60, modelCalls: 1, seconds: 10 } }), subTask('b', { unused: { tokens: 500, modelCalls: 9, seconds: 99 } }), subTask('c')]),
      allowanceLeft: { tokens: 5, modelCalls: 0, seconds: 1 },
    };
    // b claims more than its slice (100, 2, 30): only its slice comes back; c gave nothing back.
    expect(allowanceAfterSubTasks(parent)).toEqual({ tokens: 165, modelCalls: 3, seconds: 41 });
    expect(allowanceAfterSubTasks(parentWith([subTask('a')]))).toBeUndefined();
  });
});
