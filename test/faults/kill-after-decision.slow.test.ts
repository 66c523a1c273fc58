// Fault: SIGKILL of the real agent process after an "Approve" press was saved and before the approved call was
// resumed. The fault proxy makes Telegram hang on editMessageText, the card edit that comes after the decision is
// stored and before the resumption is queued; the process is killed while that edit hangs.
// Proves: after the restart the approved `exec` runs exactly once (counter.txt has one line), the person gets
// the model's continuation once, and the card the crash left with live buttons shows its outcome.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../fakes/run-compiled.js';
import { waitFor } from '../fakes/start-test-app.js';
import { type AgentUnderFault, createAgentUnderFault, endsWithToolResult, patientMs } from './agent-under-fault.js';
import { execApprovalYaml } from './exec-approval-config.js';

describe('SIGKILL between an approval decision and the resumption', () => {
  let world: AgentUnderFault | undefined;
  beforeAll(() => ensureBuilt(), 120_000);
  afterEach(async () => {
    await world?.close();
    world = undefined;
  });

  it('runs the approved call exactly once after the restart and continues the turn once', async () => {
    world = await createAgentUnderFault({ yaml: execApprovalYaml });
    const current = world;
    const counter = join(current.workFolder, 'workspace', 'counter.txt');
    current.model.enqueue({ toolCalls: [{ name: 'exec', arguments: { command: 'echo run >> counter.txt' } }] });
    current.model.setFallback((body, context) => (endsWithToolResult(body) ? { text: 'Continuation: the counter ran.' } : { text: `echo: ${context.lastUserText}` }));

    await current.start();
    await current.send('bump the counter');
    const card = await current.waitForBotMessage((message) => (message.keyboard?.length ?? 0) > 0, 'the approval card');
    current.proxy.inject('editMessageText', 'hang');
    await current.press(card, /Approve/);
    await waitFor(() => current.proxy.callsOf('editMessageText').some((call) => call.status === 0), 'the card edit to hang', patientMs);
    // Decided and saved, not yet run: exactly the moment this test is about.
    expect(existsSync(counter)).toBe(false);
    await current.kill();

    await current.start();
    await current.waitForBotMessage((message) => message.text === 'Continuation: the counter ran.', 'the continuation after the restart');
    await current.send('ping');
    await current.waitForBotMessage((message) => message.text === 'echo: ping', 'the answer to the next message');
    await current.stop();

    expect(readFileSync(counter, 'utf8')).toBe('run\n');
    expect(current.botMessages().filter((message) => message.text === 'Continuation: the counter ran.')).toHaveLength(1);
    // The edit the crash interrupted is made after the restart (the journal re-runs the press, which finds the
    // approval decided): the card shows its outcome and no live buttons.
    const settled = current.botMessages().find((message) => message.messageId === card.messageId);
    expect(settled?.text).toContain('Approved by @user1001');
    expect(settled?.keyboard ?? []).toEqual([]);
  }, 90_000);
});
