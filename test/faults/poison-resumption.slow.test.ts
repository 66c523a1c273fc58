// Fault: a resumed turn that kills the real agent process every time it runs. The person approves an `exec` call;
// the command runs, and the model call that follows its result never returns: the test SIGKILLs the agent there,
// restarts it over the same SQLite file (its start-up sweep resumes the turn again), and kills it there again.
// Proves: resumptions are counted like messages. After the second death the third start parks the resumption
// instead of running it: the model is not asked to continue a third time, the approved command ran once (the replay
// guard), the person is told in one sentence exactly once, the next message is answered, and no sweep queues the
// resumption again. `npm run parked -- retry <id>` then puts it back with its count reset, and the next start
// continues the turn once. On a build without the count the start-up sweep resumes the turn a third time.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PendingApproval } from '../../src/approvals/pending-approval.js';
import type { SuspendedTurn } from '../../src/approvals/suspended-turn.js';
import type { ParkedTurn } from '../../src/journal/parked-turns.js';
import { createStore } from '../../src/store/create-store.js';
import { ensureBuilt } from '../fakes/run-compiled.js';
import { waitFor } from '../fakes/start-test-app.js';
import { createGate } from '../fakes/webhook-client.js';
import { type AgentUnderFault, createAgentUnderFault, faultUser, patientMs } from './agent-under-fault.js';
import { runParkedCommand } from './run-parked-command.js';
import { setAsideSentence, startUntilParked } from './start-until-parked.js';
import { execApprovalYaml } from './exec-approval-config.js';

const continuation = 'Continuation: the counter ran.';

describe('a resumed turn that kills the agent every time it continues', () => {
  let world: AgentUnderFault | undefined;
  // Holds the continuation's model calls open until the test ends (the process is killed meanwhile).
  let gate = createGate();
  beforeAll(() => ensureBuilt(), 120_000);
  afterEach(async () => {
    gate.open();
    await world?.close();
    world = undefined;
    gate = createGate();
  });

  /** What the data folder holds after a clean stop: parked turns, approvals and suspended turns. */
  async function readStore(current: AgentUnderFault) {
    const store = await createStore({ dataDir: current.dataDir });
    try {
      return {
        parked: (await store.namespace<ParkedTurn>('parked-turns').entries()).map(([, turn]) => turn),
        approvals: (await store.namespace<PendingApproval>('approvals').entries()).map(([, approval]) => approval),
        suspended: (await store.namespace<SuspendedTurn>('suspended-turns').entries()).map(([, turn]) => turn),
      };
    } finally {
      await store.close();
    }
  }


  it('is continued twice, parked on the third start, the person told once; npm run parked retry continues it once more', async () => {
    world = await createAgentUnderFault({ yaml: execApprovalYaml });
    const current = world;
    const counter = join(current.workFolder, 'workspace', 'counter.txt');
    let continuations = 0;
    let blocking = true;
    current.model.enqueue({ toolCalls: [{ name: 'exec', arguments: { command: 'echo run >> counter.txt' } }] });
    // A continuation is asked with no new user message: after the tool result, or (once the chat moved on) after the
    // answer to the next message.
    current.model.setFallback(async (body, context) => {
      if (body.messages?.at(-1)?.role === 'user') return { text: `echo: ${context.lastUserText}` };
      continuations += 1;
      if (blocking) await gate.opened;
      return { text: continuation };
    });

    await current.start();
    await current.send('bump the counter');
    const card = await current.waitForBotMessage((message) => (message.keyboard?.length ?? 0) > 0, 'the approval card');
    await current.press(card, /Approve/);
    await waitFor(() => continuations === 1, 'the first continuation (after the approved command)', patientMs);
    expect(current.modelRequests().at(-1)?.body?.messages?.at(-1)?.role).toBe('tool');
    expect(readFileSync(counter, 'utf8')).toBe('run\n');
    await current.kill();

    // The start-up sweep resumes the turn: the command is not run again (its result is recorded), the model is asked again.
    await current.start();
    await waitFor(() => continuations === 2, 'the continuation after the first death', patientMs);
    await current.kill();

    await startUntilParked(current, { text: 'ping', answer: 'echo: ping' });
    await current.stop();

    expect(continuations).toBe(2);
    expect(readFileSync(counter, 'utf8')).toBe('run\n');
    expect(current.botMessages().filter((message) => message.text === setAsideSentence)).toHaveLength(1);
    expect(current.botMessages().some((message) => message.text === continuation)).toBe(false);
    const parkedState = await readStore(current);
    expect(parkedState.parked).toMatchObject([{ attempts: 2, event: { type: 'turn-resumed', chatId: String(faultUser) } }]);
    expect(parkedState.approvals).toMatchObject([{ status: 'approved', resumption: { state: 'resuming', starts: 2 } }]);
    expect(parkedState.suspended).toMatchObject([{ kind: 'approval', parkedAt: expect.any(String) }]);
    const id = parkedState.parked[0]?.id ?? '';
    const listed = await runParkedCommand(current);
    expect(listed).toContain('1 parked turn(s):');
    expect(listed).toContain(`${id}`);
    expect(listed).toContain('turn-resumed');

    // The operator retries it while the agent is stopped: the next start continues the turn, once.
    expect(await runParkedCommand(current, 'retry', id)).toContain(`Parked turn ${id} is queued again`);
    blocking = false;
    await current.start();
    await current.waitForBotMessage((message) => message.text === continuation, 'the continuation after the retry');
    await current.stop();

    expect(continuations).toBe(3);
    expect(readFileSync(counter, 'utf8')).toBe('run\n');
    expect(current.botMessages().filter((message) => message.text === continuation)).toHaveLength(1);
    expect(current.botMessages().filter((message) => message.text === setAsideSentence)).toHaveLength(1);
    const retried = await readStore(current);
    expect(retried.parked).toEqual([]);
    expect(retried.suspended).toEqual([]);
    expect(retried.approvals).toMatchObject([{ resumption: { state: 'done' } }]);
  }, 240_000);
});
