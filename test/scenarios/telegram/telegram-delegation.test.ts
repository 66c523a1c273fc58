import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptedRequestBody } from '../../fakes/scripted-model-server.js';
import type { EmulatedBotMessage } from '../../fakes/telegram-emulator.js';
import { startTelegramScenario, type TelegramScenario } from '../../fakes/telegram-scenario.js';
import { execApprovalYaml } from '../../faults/exec-approval-config.js';

function buttonData(card: EmulatedBotMessage, label: RegExp): string {
  const button = card.keyboard?.flat().find((candidate) => label.test(candidate.text));
  if (!button) throw new Error(`no button ${label} on the card: ${JSON.stringify(card.keyboard)}`);
  return button.callback_data;
}

/** The last tool result the model was shown in this request. */
function lastToolResult(body: ScriptedRequestBody): string {
  return String(body.messages?.filter((message) => message.role === 'tool').at(-1)?.content ?? '');
}

/** The names of the tools a model request offered. */
function offeredTools(body: ScriptedRequestBody | undefined): string[] {
  const tools = (body?.tools ?? []) as { function?: { name?: string } }[];
  return tools.map((tool) => tool.function?.name ?? '').sort();
}

describe('the delegate tool: a sub-task with narrowed tools, its card naming the chain, its result in the parent answer (Telegram emulator)', () => {
  let scenario: TelegramScenario | undefined;
  let folder: string | undefined;
  afterEach(async () => {
    await scenario?.stop();
    scenario = undefined;
    if (folder) rmSync(folder, { recursive: true, force: true });
    folder = undefined;
  });

  it('runs a sub-task whose exec call is approved by a button press, and its result reaches the parent answer', async () => {
    folder = mkdtempSync(join(tmpdir(), 'echo-delegation-'));
    scenario = await startTelegramScenario({ allowFrom: '1001', yaml: execApprovalYaml(folder) });
    const { model } = scenario;
    model.enqueue(
      // The parent hands the work to a sub-task with exec only.
      { toolCalls: [{ name: 'delegate', arguments: { name: 'fix-tests', instructions: 'Run the tests and say what they print.', tools: ['exec'], limits: { modelCalls: 4 } } }] },
      // The sub-task runs a command (it asks: exec always does).
      { toolCalls: [{ name: 'exec', arguments: { command: 'echo tests-green' } }] },
      // After the approval, the sub-task answers with what the command printed.
      (body) => ({ text: `child saw: ${lastToolResult(body)}` }),
      // The parent, resumed with the sub-task's answer, answers the person.
      (body) => ({ text: `parent answer: ${lastToolResult(body)}` }),
    );
    const client = scenario.client({ userId: 1001 });
    await client.sendMessage(client.makeMessage('please fix the tests'));

    const waiting = await scenario.waitForBotMessage((message) => message.text.includes('sub-task fix-tests'), 'the notice that the sub-task runs');
    expect(waiting.text).toContain('exec');
    const card = await scenario.waitForBotMessage((message) => (message.keyboard?.length ?? 0) > 0, 'the approval card of the sub-task');
    expect(card.text).toContain('Via sub-task fix-tests of your request');
    expect(card.text).toContain('The sub-task may use: exec.');
    expect(card.text).toContain('echo tests-green');

    // The sub-task's model was shown only its granted tool; the parent saw the conversation's whole set.
    const requests = scenario.modelRequests();
    expect(offeredTools(requests[1]?.body)).toEqual(['exec']);
    expect(offeredTools(requests[0]?.body)).toContain('delegate');
    expect(offeredTools(requests[0]?.body).length).toBeGreaterThan(1);

    await client.sendCallback(client.makeCallbackQuery(buttonData(card, /Approve/), { message: { message_id: card.messageId } }));
    const answer = await scenario.waitForBotMessage((message) => message.text.startsWith('parent answer:'), 'the parent answer', 20_000);
    expect(answer.text).toContain('Sub-task fix-tests answered');
    expect(answer.text).toContain('child saw:');
    expect(answer.text).toContain('tests-green');
    expect(scenario.botMessages().filter((message) => message.text.startsWith('parent answer:'))).toHaveLength(1);

    // The sub-task's exec call is audited with its chain and the delegating call.
    const audit = readFileSync(join(scenario.testApp.dataDir, 'audit', 'audit.jsonl'), 'utf8')
      .split('\n')
      .filter((line) => line.includes('"exec"'))
      .map((line) => JSON.parse(line) as { delegationChain?: string[]; parentExecutionId?: string });
    expect(audit.some((entry) => entry.delegationChain?.join() === 'fix-tests' && typeof entry.parentExecutionId === 'string')).toBe(true);
  });

  it('a sub-task waiting on its card keeps the parent waiting; Deny stops the sub-task and the parent answers with the failure', async () => {
    folder = mkdtempSync(join(tmpdir(), 'echo-delegation-'));
    scenario = await startTelegramScenario({ allowFrom: '1001', yaml: execApprovalYaml(folder) });
    scenario.model.enqueue(
      { toolCalls: [{ name: 'delegate', arguments: { name: 'cleanup', instructions: 'Delete the old builds.', tools: ['exec'] } }] },
      { toolCalls: [{ name: 'exec', arguments: { command: 'echo removing' } }] },
      (body) => ({ text: `parent answer: ${lastToolResult(body)}` }),
    );
    const client = scenario.client({ userId: 1001 });
    await client.sendMessage(client.makeMessage('clean up the builds'));
    const card = await scenario.waitForBotMessage((message) => (message.keyboard?.length ?? 0) > 0, 'the approval card of the sub-task');
    expect(card.text).toContain('Via sub-task cleanup of your request');
    // Waiting visibly: the notice is there, no answer yet.
    expect(scenario.botMessages().some((message) => message.text.includes('sub-task cleanup') && message.text.includes('deny one to stop it'))).toBe(true);
    expect(scenario.botMessages().some((message) => message.text.startsWith('parent answer:'))).toBe(false);

    await client.sendCallback(client.makeCallbackQuery(buttonData(card, /Deny/), { message: { message_id: card.messageId } }));
    const answer = await scenario.waitForBotMessage((message) => message.text.startsWith('parent answer:'), 'the parent answer after the denial');
    expect(answer.text).toContain('sub-task cleanup did not finish');
    expect(answer.text).toContain('denied this action');
    // The sub-task's model was not asked again after the denial: the parent's two calls and the sub-task's one.
    expect(scenario.modelRequests()).toHaveLength(3);
  });

  it('nests a sub-task in a sub-task, refuses a third level, and carries each answer up to the person', async () => {
    scenario = await startTelegramScenario({ allowFrom: '1001', yaml: 'tools:\n  alsoAllow: [delegate]\napprovals:\n  explain: false\n' });
    scenario.model.enqueue(
      { toolCalls: [{ name: 'delegate', arguments: { name: 'outer', instructions: 'Plan the trip.', tools: ['delegate'] } }] },
      { toolCalls: [{ name: 'delegate', arguments: { name: 'inner', instructions: 'Pick a date.', tools: ['delegate'] } }] },
      { toolCalls: [{ name: 'delegate', arguments: { name: 'deepest', instructions: 'Check the weather.', tools: [] } }] },
      (body) => ({ text: `inner: ${lastToolResult(body)}` }),
      (body) => ({ text: `outer: ${lastToolResult(body)}` }),
      (body) => ({ text: `parent answer: ${lastToolResult(body)}` }),
    );
    const client = scenario.client({ userId: 1001 });
    await client.sendMessage(client.makeMessage('plan a trip'));
    const answer = await scenario.waitForBotMessage((message) => message.text.startsWith('parent answer:'), 'the parent answer');
    expect(answer.text).toContain('Sub-task outer answered');
    expect(answer.text).toContain('Sub-task inner answered');
    expect(answer.text).toContain('sub-tasks may only be 2 levels deep');
    expect(scenario.botMessages().some((message) => message.text.includes('sub-task inner of sub-task outer of your request'))).toBe(true);
    expect(scenario.botMessages().some((message) => message.text.includes('sub-task deepest'))).toBe(false);
    expect(scenario.modelRequests()).toHaveLength(6);
  });

  it('refuses, before it starts, a sub-task asking for exec from a parent on the messaging profile, naming the tool', async () => {
    scenario = await startTelegramScenario({ allowFrom: '1001', yaml: 'tools:\n  profile: messaging\n  alsoAllow: [delegate]\napprovals:\n  explain: false\n' });
    scenario.model.enqueue(
      { toolCalls: [{ name: 'delegate', arguments: { name: 'sneaky', instructions: 'Run rm -rf.', tools: ['exec', 'web_fetch'] } }] },
      (body) => ({ text: `parent answer: ${lastToolResult(body)}` }),
    );
    const client = scenario.client({ userId: 1001 });
    await client.sendMessage(client.makeMessage('get it done somehow'));
    const answer = await scenario.waitForBotMessage((message) => message.text.startsWith('parent answer:'), 'the parent answer');
    expect(answer.text).toContain('The sub-task was not started');
    expect(answer.text).toContain('(exec)');
    // Nothing ran: two model calls (the parent's two), no card, no sub-task notice.
    expect(scenario.modelRequests()).toHaveLength(2);
    expect(scenario.botMessages().some((message) => (message.keyboard?.length ?? 0) > 0)).toBe(false);
    expect(scenario.botMessages().some((message) => message.text.includes('sub-task sneaky'))).toBe(false);
  });
});
