import { afterEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../src/model/chat-message.js';
import type { ModelFailure } from '../../../src/model/model-port.js';
import { runTurn, type RunTurnInput } from '../../../src/agent/run-turn.js';
import { placeholdersFor } from '../../../src/agent/turn-flow.js';
import { createApprovalGate } from '../../../src/approvals/create-approval-gate.js';
import { createGrantStore, type Grant } from '../../../src/approvals/grants.js';
import { askUserTool } from '../../../tools/ask-user-tool.js';
import { createRegistryHarness, type RegistryHarness } from '../registry/registry-fixtures.js';
import { countingTool, type ScriptedAnswer, scopeFor, scriptedModel, silentLogger, toolCall } from '../registry/turn-fixtures.js';

let harness: RegistryHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const serverDown: ModelFailure = { kind: 'server', message: 'HTTP 500', retryable: true, provider: 'scripted' };

async function setup(script: readonly ScriptedAnswer[] | Parameters<typeof scriptedModel>[0], options: { maxIterations?: number; visible?: string[]; allowedTools?: string[] } = {}) {
  const note = countingTool('note');
  const exec = countingTool('exec', { risk: 'exec', approval: 'always' });
  const hidden = countingTool('hidden');
  harness = await createRegistryHarness({
    tools: [note.tool, exec.tool, hidden.tool, askUserTool],
    approvalHookFrom: (store) =>
      createApprovalGate({
        hardBlocks: [],
        require: [],
        autoApprove: [],
        grants: createGrantStore(store.namespace<Grant[]>('grants-session'), store.namespace<Grant[]>('grants-always')),
        canAskWhenUnattended: () => false,
      }),
  });
  const scripted = scriptedModel(script);
  const input: RunTurnInput = {
    model: scripted.model,
    registry: harness.registry,
    logger: await silentLogger(),
    scope: scopeFor(options.visible ?? ['note', 'exec', 'ask_user'], options.allowedTools === undefined ? {} : { allowedTools: options.allowedTools }),
    systemPrompt: 'You are a test.',
    messages: [{ role: 'user', content: 'please help' }],
    maxIterations: options.maxIterations ?? 12,
    placeholders: (suspension) => placeholdersFor('susp1', suspension),
  };
  return { note, exec, hidden, requests: scripted.requests, run: () => runTurn(input) };
}

/** Every tool call in the messages has exactly one tool result, right after its assistant message. */
function expectEveryCallAnswered(messages: readonly ChatMessage[]): void {
  for (const [index, message] of messages.entries()) {
    if (message.role !== 'assistant' || !message.toolCalls) continue;
    const following = messages.slice(index + 1, index + 1 + message.toolCalls.length);
    expect(following.map((item) => (item.role === 'tool' ? item.toolCallId : item.role))).toEqual(message.toolCalls.map((call) => call.id));
  }
  const results = messages.filter((message) => message.role === 'tool');
  expect(new Set(results.map((message) => (message.role === 'tool' ? message.toolCallId : ''))).size).toBe(results.length);
}

describe('runTurn', () => {
  it('returns the answer of a model that calls no tool, after one request with the system prompt and the visible tools', async () => {
    const { requests, run } = await setup([{ text: 'Hello!' }]);
    const outcome = await run();
    expect(outcome).toEqual({ status: 'completed', text: 'Hello!', newMessages: [{ role: 'assistant', content: 'Hello!' }] });
    expect(requests).toHaveLength(1);
    expect(requests[0]?.messages).toEqual([
      { role: 'system', content: 'You are a test.' },
      { role: 'user', content: 'please help' },
    ]);
    expect(requests[0]?.tools.map((tool) => tool.name).sort()).toEqual(['ask_user', 'exec', 'note']);
  });

  it('runs tool calls, feeds the results back, and ends at the final answer', async () => {
    const first = toolCall('note', { text: 'milk' });
    const { note, requests, run } = await setup([{ text: 'Let me note that.', calls: [first] }, { text: 'Noted.' }]);
    const outcome = await run();
    expect(outcome).toEqual({
      status: 'completed',
      text: 'Noted.',
      newMessages: [
        { role: 'assistant', content: 'Let me note that.', toolCalls: [first] },
        { role: 'tool', toolCallId: first.id, toolName: 'note', content: 'note did milk' },
        { role: 'assistant', content: 'Noted.' },
      ],
    });
    expect(note.runs).toEqual([{ text: 'milk' }]);
    expect(requests[1]?.messages.at(-1)).toEqual({ role: 'tool', toolCallId: first.id, toolName: 'note', content: 'note did milk' });
  });

  it('answers a call to a tool the session cannot see with an error, runs nothing, and goes on', async () => {
    const call = toolCall('hidden', { text: 'x' });
    const { hidden, run } = await setup([{ calls: [call] }, { text: 'Sorry, I cannot.' }]);
    const outcome = await run();
    expect(hidden.runs).toHaveLength(0);
    expect(outcome.status).toBe('completed');
    expect(outcome.newMessages[1]).toEqual({ role: 'tool', toolCallId: call.id, toolName: 'hidden', content: 'Error (denied): The tool "hidden" is not available in this conversation.' });
  });

  it('blocks a call repeated with identical arguments on the 4th time in a turn', async () => {
    const repeated = () => ({ calls: [toolCall('note', { text: 'again' })] });
    const { note, run } = await setup([repeated(), repeated(), repeated(), repeated(), { text: 'I will stop.' }]);
    const outcome = await run();
    expect(note.runs).toHaveLength(3);
    const results = outcome.newMessages.filter((message) => message.role === 'tool').map((message) => message.content);
    expect(results).toEqual([
      'note did again',
      'note did again',
      'note did again',
      'Blocked: this exact call was already made 3 times in this turn. Use the earlier results or change approach.',
    ]);
    expect(outcome).toMatchObject({ status: 'completed', text: 'I will stop.' });
  });

  it('shows a sub-task only its allowed tools, and the registry refuses the others', async () => {
    const call = toolCall('exec', { text: 'rm' });
    const { exec, requests, run } = await setup([{ calls: [call] }, { text: 'Could not.' }], { allowedTools: ['note', 'hidden'] });
    const outcome = await run();
    expect(requests[0]?.tools.map((tool) => tool.name)).toEqual(['note']);
    expect(requests[1]?.messages.at(-1)).toEqual({ role: 'tool', toolCallId: call.id, toolName: 'exec', content: 'Error (denied): The tool "exec" is not allowed in this context.' });
    expect(exec.runs).toEqual([]);
    expect(outcome.status).toBe('completed');
  });

  it('forces a final answer without tools at the iteration limit', async () => {
    let counter = 0;
    const { note, requests, run } = await setup(
      (request) => {
        counter += 1;
        return request.tools.length > 0 ? { calls: [toolCall('note', { text: `step ${counter}` })] } : { text: 'Here is what I have.' };
      },
      { maxIterations: 3 },
    );
    const outcome = await run();
    expect(requests).toHaveLength(4);
    expect(requests.slice(0, 3).every((request) => request.tools.length === 3)).toBe(true);
    expect(requests[3]?.tools).toEqual([]);
    expect(requests[3]?.messages.at(-1)).toEqual({
      role: 'user',
      content: 'You have reached the limit of tool calls for this turn. Answer the user now with what you have, without calling tools.',
    });
    expect(note.runs).toHaveLength(3);
    expect(outcome).toMatchObject({ status: 'completed', text: 'Here is what I have.' });
    expect(outcome.newMessages.at(-1)).toEqual({ role: 'assistant', content: 'Here is what I have.' });
    // The note to the model is not stored as something the user said.
    expect(outcome.newMessages.some((message) => message.role === 'user')).toBe(false);
    expectEveryCallAnswered(outcome.newMessages);
  });

  it('drops tool calls the model makes in the forced final answer, keeping the history valid', async () => {
    const { requests, run } = await setup(
      (request) => (request.tools.length > 0 ? { calls: [toolCall('note', { text: `x${Math.random()}` })] } : { text: 'final', calls: [toolCall('note', { text: 'sneaky' })] }),
      { maxIterations: 1 },
    );
    const outcome = await run();
    expect(requests).toHaveLength(2);
    expect(outcome.newMessages.at(-1)).toEqual({ role: 'assistant', content: 'final' });
    expectEveryCallAnswered(outcome.newMessages);
  });

  it('returns model-failed when the model fails, with what was added before', async () => {
    const call = toolCall('note', { text: 'a' });
    const { run } = await setup([{ calls: [call] }, { failure: serverDown }]);
    const outcome = await run();
    expect(outcome.status).toBe('model-failed');
    expect(outcome).toMatchObject({ failure: serverDown });
    expect(outcome.newMessages).toHaveLength(2);
    expectEveryCallAnswered(outcome.newMessages);
  });

  it('returns model-failed when the very first call fails, adding nothing', async () => {
    const { run } = await setup([{ failure: serverDown }]);
    expect(await run()).toEqual({ status: 'model-failed', failure: serverDown, newMessages: [] });
  });

  it('returns model-failed when the forced final answer fails', async () => {
    const { run } = await setup([{ calls: [toolCall('note', { text: 'a' })] }, { failure: serverDown }], { maxIterations: 1 });
    const outcome = await run();
    expect(outcome.status).toBe('model-failed');
    expect(outcome.newMessages).toHaveLength(2);
  });

  it('suspends at a call that needs approval, with placeholders for it and every later call of the batch', async () => {
    const before = toolCall('note', { text: 'before' });
    const risky = toolCall('exec', { text: 'rm old.log' });
    const after1 = toolCall('note', { text: 'after 1' });
    const after2 = toolCall('note', { text: 'after 2' });
    const { note, exec, requests, run } = await setup([{ text: 'Working.', calls: [before, risky, after1, after2] }]);
    const outcome = await run();
    expect(outcome.status).toBe('suspended');
    if (outcome.status !== 'suspended') return;
    expect(outcome.suspension).toMatchObject({ kind: 'approval', call: risky, remaining: [after1, after2] });
    expect(outcome.newMessages).toEqual([
      { role: 'assistant', content: 'Working.', toolCalls: [before, risky, after1, after2] },
      { role: 'tool', toolCallId: before.id, toolName: 'note', content: 'note did before' },
      { role: 'tool', toolCallId: risky.id, toolName: 'exec', content: 'Waiting for a person to approve (approval susp1); it has not run.' },
      { role: 'tool', toolCallId: after1.id, toolName: 'note', content: 'Not run yet: queued behind approval susp1.' },
      { role: 'tool', toolCallId: after2.id, toolName: 'note', content: 'Not run yet: queued behind approval susp1.' },
    ]);
    expect(exec.runs).toHaveLength(0);
    expect(note.runs).toEqual([{ text: 'before' }]);
    expect(requests).toHaveLength(1);
    expectEveryCallAnswered(outcome.newMessages);
  });

  it('suspends at ask_user as a question, with placeholders', async () => {
    const question = toolCall('ask_user', { question: 'Tea or coffee?', options: ['Tea', 'Coffee'] });
    const later = toolCall('note', { text: 'later' });
    const { note, requests, run } = await setup([{ calls: [question, later] }]);
    const outcome = await run();
    expect(outcome).toMatchObject({ status: 'suspended', suspension: { kind: 'question', question: 'Tea or coffee?', options: ['Tea', 'Coffee'], call: question, remaining: [later] } });
    expect(outcome.newMessages.slice(1)).toEqual([
      { role: 'tool', toolCallId: question.id, toolName: 'ask_user', content: 'Waiting for the person to answer (question susp1).' },
      { role: 'tool', toolCallId: later.id, toolName: 'note', content: 'Not run yet: queued behind question susp1.' },
    ]);
    expect(note.runs).toHaveLength(0);
    expect(requests).toHaveLength(1);
  });
});
