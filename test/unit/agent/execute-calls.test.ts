import { afterEach, describe, expect, it } from 'vitest';
import { executeCalls } from '../../../src/agent/execute-calls.js';
import { createApprovalGate } from '../../../src/approvals/create-approval-gate.js';
import { createGrantStore, type Grant } from '../../../src/approvals/grants.js';
import { hashToolCall } from '../../../src/registry/canonical-json.js';
import { askUserTool } from '../../../tools/ask-user-tool.js';
import { createRegistryHarness, type RegistryHarness } from '../registry/registry-fixtures.js';
import { countingTool, scopeFor, silentLogger, toolCall } from '../registry/turn-fixtures.js';

let harness: RegistryHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function setup(options: { withGate?: boolean } = {}) {
  const note = countingTool('note');
  const exec = countingTool('exec', { risk: 'exec', approval: 'always' });
  harness = await createRegistryHarness({
    tools: [note.tool, exec.tool, askUserTool],
    approvalHookFrom: options.withGate
      ? (store) =>
          createApprovalGate({
            hardBlocks: [],
            require: [],
            autoApprove: [],
            grants: createGrantStore(store.namespace<Grant[]>('grants-session'), store.namespace<Grant[]>('grants-always')),
            canAskWhenUnattended: () => false,
          })
      : undefined,
  });
  const scope = scopeFor(['note', 'exec', 'ask_user']);
  return { note, exec, scope, registry: harness.registry, logger: await silentLogger() };
}

describe('executeCalls', () => {
  it('runs a batch in order and answers every call by its id', async () => {
    const { note, scope, registry, logger } = await setup();
    const calls = [toolCall('note', { text: 'one' }), toolCall('note', { text: 'two' }), toolCall('ghost', {}), toolCall('note', { text: 3 })];
    const outcome = await executeCalls({ registry, scope, calls, repeats: new Map(), logger });
    expect(outcome.suspension).toBeUndefined();
    expect(outcome.results).toEqual([
      { role: 'tool', toolCallId: calls[0]?.id, toolName: 'note', content: 'note did one' },
      { role: 'tool', toolCallId: calls[1]?.id, toolName: 'note', content: 'note did two' },
      { role: 'tool', toolCallId: calls[2]?.id, toolName: 'ghost', content: 'Error (denied): Unknown tool "ghost". Use only the tools you were given.' },
      { role: 'tool', toolCallId: calls[3]?.id, toolName: 'note', content: 'Error (validation): Invalid parameters: text: Invalid input: expected string, received number' },
    ]);
    expect(note.runs).toEqual([{ text: 'one' }, { text: 'two' }]);
  });

  it('blocks the 4th identical call of a turn; the tool ran 3 times', async () => {
    const { note, scope, registry, logger } = await setup();
    const calls = [1, 2, 3, 4].map(() => toolCall('note', { text: 'same' }));
    const outcome = await executeCalls({ registry, scope, calls, repeats: new Map(), logger });
    expect(note.runs).toHaveLength(3);
    expect(outcome.results[3]).toEqual({
      role: 'tool',
      toolCallId: calls[3]?.id,
      toolName: 'note',
      content: 'Blocked: this exact call was already made 3 times in this turn. Use the earlier results or change approach.',
    });
  });

  it('counts identical calls across batches of the same turn, whatever the key order or spacing', async () => {
    const { note, scope, registry, logger } = await setup();
    const repeats = new Map<string, number>();
    const same = (text: string) => ({ id: `x-${Math.random()}`, name: 'note', argumentsText: text });
    await executeCalls({ registry, scope, calls: [same('{"text":"a"}'), same('{ "text": "a" }')], repeats, logger });
    const outcome = await executeCalls({ registry, scope, calls: [same('{"text" :"a"}'), same('{"text":"a"}')], repeats, logger });
    expect(note.runs).toHaveLength(3);
    expect(outcome.results[1]?.content).toMatch(/^Blocked:/);
  });

  it('does not count calls with different arguments as repeats', async () => {
    const { note, scope, registry, logger } = await setup();
    const calls = [1, 2, 3, 4, 5].map((index) => toolCall('note', { text: `n${index}` }));
    await executeCalls({ registry, scope, calls, repeats: new Map(), logger });
    expect(note.runs).toHaveLength(5);
  });

  it('counts an alias and its tool as the same call (bash and exec)', async () => {
    const { exec, scope, registry, logger } = await setup();
    const calls = ['exec', 'bash', 'shell', 'bash'].map((name) => toolCall(name, { text: 'ls' }));
    const outcome = await executeCalls({ registry, scope, calls, repeats: new Map(), logger });
    expect(exec.runs).toHaveLength(3);
    expect(outcome.results[3]?.content).toMatch(/^Blocked:/);
  });

  it('refuses, through the registry, a tool outside a sub-task\'s allowed tools even when the conversation could use it', async () => {
    const { note, registry, logger } = await setup();
    const scope = scopeFor(['note', 'exec', 'ask_user'], { allowedTools: ['ask_user'], delegationChain: [{ name: 'fix-tests', parentExecutionId: 'exec-root', agentId: 'echo' }] });
    const calls = [toolCall('note', { text: 'one' })];
    const outcome = await executeCalls({ registry, scope, calls, repeats: new Map(), logger });
    expect(outcome.results).toEqual([{ role: 'tool', toolCallId: calls[0]?.id, toolName: 'note', content: 'Error (denied): The tool "note" is not allowed in this context.' }]);
    expect(note.runs).toEqual([]);
  });

  it('suspends at a call that needs approval; calls after it do not run', async () => {
    const { note, exec, scope, registry, logger } = await setup({ withGate: true });
    const calls = [toolCall('note', { text: 'before' }), toolCall('exec', { text: 'rm old.log' }), toolCall('note', { text: 'after' })];
    const outcome = await executeCalls({ registry, scope, calls, repeats: new Map(), logger });
    expect(outcome.results).toEqual([{ role: 'tool', toolCallId: calls[0]?.id, toolName: 'note', content: 'note did before' }]);
    expect(outcome.suspension).toMatchObject({
      kind: 'approval',
      call: calls[1],
      remaining: [calls[2]],
      input: { text: 'rm old.log' },
      argumentsHash: hashToolCall('exec', { text: 'rm old.log' }),
      reason: 'this tool always asks',
    });
    expect(exec.runs).toHaveLength(0);
    expect(note.runs).toEqual([{ text: 'before' }]);
  });

  it('runs a call that needs approval once its hash was approved for it', async () => {
    const { exec, registry, logger } = await setup({ withGate: true });
    const scope = scopeFor(['exec']);
    const outcome = await executeCalls({ registry, scope, calls: [toolCall('exec', { text: 'rm old.log' })], repeats: new Map(), logger, approvedFirstCall: hashToolCall('exec', { text: 'rm old.log' }) });
    expect(outcome.suspension).toBeUndefined();
    expect(exec.runs).toEqual([{ text: 'rm old.log' }]);
  });

  it('suspends at ask_user as a question with its options', async () => {
    const { note, scope, registry, logger } = await setup();
    const calls = [toolCall('ask_user', { question: 'Which city?', options: ['Lyon', 'Nantes'] }), toolCall('note', { text: 'after' })];
    const outcome = await executeCalls({ registry, scope, calls, repeats: new Map(), logger });
    expect(outcome.results).toEqual([]);
    expect(outcome.suspension).toEqual({ kind: 'question', call: calls[0], remaining: [calls[1]], question: 'Which city?', options: ['Lyon', 'Nantes'] });
    expect(note.runs).toHaveLength(0);
  });

  it('answers an invalid ask_user call as an error instead of suspending', async () => {
    const { scope, registry, logger } = await setup();
    const outcome = await executeCalls({ registry, scope, calls: [toolCall('ask_user', { question: 'Only one?', options: ['yes'] })], repeats: new Map(), logger });
    expect(outcome.suspension).toBeUndefined();
    expect(outcome.results[0]?.content).toMatch(/^Error \(validation\): Invalid parameters: options: /);
  });
});
