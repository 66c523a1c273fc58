// Fault: SIGKILL of the real agent process while an approved `exec` runs (`echo run >> counter.txt; sleep 20`:
// killed during the sleep, after the side effect), then a restart over the same SQLite file.
// Proves: the command is not run again (counter.txt keeps one line), and what the model is told after the
// restart says the outcome is unknown, never that the call "has not run". (Whether the orphaned `sleep` is
// killed is another test's business: nothing here depends on it.)
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../fakes/run-compiled.js';
import { waitFor } from '../fakes/start-test-app.js';
import { type AgentUnderFault, createAgentUnderFault, endsWithToolResult, patientMs, readRequest } from './agent-under-fault.js';
import { execApprovalYaml } from './exec-approval-config.js';

describe('SIGKILL while an approved command runs', () => {
  let world: AgentUnderFault | undefined;
  beforeAll(() => ensureBuilt(), 120_000);
  afterEach(async () => {
    await world?.close();
    world = undefined;
  });

  it('does not run the command again and tells the model its outcome is unknown', async () => {
    world = await createAgentUnderFault({ yaml: execApprovalYaml });
    const current = world;
    const counter = join(current.workFolder, 'workspace', 'counter.txt');
    current.model.enqueue({ toolCalls: [{ name: 'exec', arguments: { command: 'echo run >> counter.txt; sleep 20', timeoutSec: 60 } }] });
    current.model.setFallback((body, context) => (endsWithToolResult(body) ? { text: 'Continuation after the restart.' } : { text: `echo: ${context.lastUserText}` }));

    await current.start();
    await current.send('bump the counter slowly');
    const card = await current.waitForBotMessage((message) => (message.keyboard?.length ?? 0) > 0, 'the approval card');
    await current.press(card, /Approve/);
    await waitFor(() => existsSync(counter) && readFileSync(counter, 'utf8') === 'run\n', 'the command to have written its line', patientMs);
    const requestsBeforeKill = current.modelRequests().length;
    await current.kill();

    await current.start();
    await current.waitForBotMessage((message) => message.text === 'Continuation after the restart.', 'the continuation after the restart');
    await current.send('ping');
    await current.waitForBotMessage((message) => message.text === 'echo: ping', 'the answer to the next message');
    await current.stop();

    expect(readFileSync(counter, 'utf8')).toBe('run\n');
    const continuation = current.modelRequests().slice(requestsBeforeKill).find((request) => request.body !== undefined && endsWithToolResult(request.body));
    const { toolResults, userTexts } = readRequest(continuation);
    expect(toolResults).toHaveLength(1);
    expect(toolResults[0]).toMatch(/before a restart and its outcome is unknown/);
    for (const text of [...toolResults, ...userTexts]) expect(text).not.toMatch(/has not run/);
    expect(current.botMessages().filter((message) => message.text === 'Continuation after the restart.')).toHaveLength(1);
  }, 90_000);
});
