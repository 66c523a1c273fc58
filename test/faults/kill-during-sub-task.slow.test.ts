// Fault: SIGKILL of the real agent process while a sub-task (the delegate tool) runs, then a restart over the
// same SQLite file. Two moments: during the sub-task's first model call (its journaled event runs again), and
// during its approved `exec` (its resumption runs again; the replay guard reports the outcome unknown).
// Proves: the command ran once (counter.txt has one line), and the parent's answer arrives exactly once.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ScriptedHandler } from '../fakes/scripted-model-server.js';
import { ensureBuilt } from '../fakes/run-compiled.js';
import { waitFor } from '../fakes/start-test-app.js';
import { type AgentUnderFault, createAgentUnderFault, patientMs } from './agent-under-fault.js';
import { execApprovalYaml } from './exec-approval-config.js';

/**
 * A model playing parent and sub-task: "fix it" → delegate; the sub-task's instructions → the command; a result
 * in the sub-task → its answer; the sub-task's answer in the parent → the parent's answer. `slowChildOnce` makes
 * the sub-task's first model call hang (for the kill).
 */
function delegatingModel(command: string, options: { readonly slowChildOnce: boolean }): ScriptedHandler {
  let childCalls = 0;
  return (body, context) => {
    const messages = body.messages ?? [];
    const last = messages.at(-1);
    const inSubTask = messages.some((message) => message.role === 'user' && String(message.content).startsWith('[Sub-task fix-tests'));
    if (last?.role === 'tool' && inSubTask) return { text: `child result: ${String(last.content)}` };
    if (last?.role === 'tool') return { text: `parent answer: ${String(last.content)}` };
    if (inSubTask) {
      childCalls += 1;
      return { toolCalls: [{ name: 'exec', arguments: { command, timeoutSec: 60 } }], ...(options.slowChildOnce && childCalls === 1 ? { delayMs: 30_000 } : {}) };
    }
    if (context.lastUserText.includes('fix it')) return { toolCalls: [{ name: 'delegate', arguments: { name: 'fix-tests', instructions: 'Bump the counter.', tools: ['exec'] } }] };
    return { text: `echo: ${context.lastUserText}` };
  };
}

describe('SIGKILL while a sub-task runs', () => {
  let world: AgentUnderFault | undefined;
  beforeAll(() => ensureBuilt(), 120_000);
  afterEach(async () => {
    await world?.close();
    world = undefined;
  });

  it('during the sub-task\'s model call: its journaled turn runs again after the restart, its command once, the parent answers once', async () => {
    world = await createAgentUnderFault({ yaml: execApprovalYaml });
    const current = world;
    const counter = join(current.workFolder, 'workspace', 'counter.txt');
    current.model.setFallback(delegatingModel('echo run >> counter.txt', { slowChildOnce: true }));

    await current.start();
    await current.send('fix it');
    await current.waitForBotMessage((message) => message.text.includes('sub-task fix-tests'), 'the notice that the sub-task runs');
    await waitFor(() => current.modelRequests().length >= 2, 'the sub-task\'s first model call', patientMs);
    await current.kill();

    await current.start();
    const card = await current.waitForBotMessage((message) => (message.keyboard?.length ?? 0) > 0, 'the sub-task\'s approval card after the restart');
    expect(card.text).toContain('Via sub-task fix-tests of your request');
    await current.press(card, /Approve/);
    await current.waitForBotMessage((message) => message.text.startsWith('parent answer:'), 'the parent answer');
    await current.send('ping');
    await current.waitForBotMessage((message) => message.text === 'echo: ping', 'the answer to the next message');
    await current.stop();

    expect(readFileSync(counter, 'utf8')).toBe('run\n');
    const answers = current.botMessages().filter((message) => message.text.startsWith('parent answer:'));
    expect(answers).toHaveLength(1);
    expect(answers[0]?.text).toContain('Sub-task fix-tests answered');
  }, 120_000);

  it('during the sub-task\'s approved command: the command is not run again, the parent answers once', async () => {
    world = await createAgentUnderFault({ yaml: execApprovalYaml });
    const current = world;
    const counter = join(current.workFolder, 'workspace', 'counter.txt');
    current.model.setFallback(delegatingModel('echo run >> counter.txt; sleep 20', { slowChildOnce: false }));

    await current.start();
    await current.send('fix it');
    const card = await current.waitForBotMessage((message) => (message.keyboard?.length ?? 0) > 0, 'the sub-task\'s approval card');
    await current.press(card, /Approve/);
    await waitFor(() => existsSync(counter) && readFileSync(counter, 'utf8') === 'run\n', 'the command to have written its line', patientMs);
    await current.kill();

    await current.start();
    const answer = await current.waitForBotMessage((message) => message.text.startsWith('parent answer:'), 'the parent answer after the restart');
    expect(answer.text).toContain('outcome is unknown');
    await current.send('ping');
    await current.waitForBotMessage((message) => message.text === 'echo: ping', 'the answer to the next message');
    await current.stop();

    expect(readFileSync(counter, 'utf8')).toBe('run\n');
    expect(current.botMessages().filter((message) => message.text.startsWith('parent answer:'))).toHaveLength(1);
  }, 120_000);
});
