// Fault: a message whose turn kills the real agent process (SIGKILL while the turn runs), twice: once in a model
// call that never returns, once while a PDF the person sent is being read (its text extracted). The agent is
// restarted over the same SQLite file after each death.
// Proves: the durable intake does not turn one message into a crash loop. The turn is run twice (the first start,
// and the re-run after the first death) and on the third start it is parked instead: the model is not asked a
// third time (the PDF is not read a third time), the person is told in one sentence exactly once, the next message
// is answered as usual, and `npm run parked` lists the parked turn. On a build without the quarantine the third
// start runs the turn again.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../src/journal/inbound-journal.js';
import type { ParkedTurn } from '../../src/journal/parked-turns.js';
import { createStore } from '../../src/store/create-store.js';
import { ensureBuilt } from '../fakes/run-compiled.js';
import { createSlowPdf } from '../fakes/slow-pdf.js';
import { waitFor } from '../fakes/start-test-app.js';
import { createGate } from '../fakes/webhook-client.js';
import { type AgentUnderFault, createAgentUnderFault, faultUser, patientMs } from './agent-under-fault.js';
import { runParkedCommand } from './run-parked-command.js';
import { setAsideSentence, startUntilParked } from './start-until-parked.js';

const extractionStarted = 'pdf extraction started';

/** How often a line occurs in a process's stderr so far. */
function occurrences(text: string, line: string): number {
  return text.split(line).length - 1;
}

describe('a message that kills the agent every time it runs', () => {
  let world: AgentUnderFault | undefined;
  // Holds the poison message's model calls open until the test ends (the process is killed meanwhile).
  let gate = createGate();
  beforeAll(() => ensureBuilt(), 120_000);
  afterEach(async () => {
    gate.open();
    await world?.close();
    world = undefined;
    gate = createGate();
  });

  /** What the data folder holds after a clean stop: the parked turns and the unfinished journal rows. */
  async function readStore(current: AgentUnderFault): Promise<{ readonly parked: readonly ParkedTurn[]; readonly unfinished: readonly (readonly [string, JournalEntry])[] }> {
    const store = await createStore({ dataDir: current.dataDir });
    try {
      return { parked: (await store.namespace<ParkedTurn>('parked-turns').entries()).map(([, turn]) => turn), unfinished: await store.namespace<JournalEntry>('inbound-journal').entries() };
    } finally {
      await store.close();
    }
  }


  it('is run twice, parked on the third start, and the person is told once; the next message is answered', async () => {
    world = await createAgentUnderFault();
    const current = world;
    const poison = 'Please do the thing that crashes you';
    let poisonCalls = 0;
    current.model.setFallback(async (_body, context) => {
      if (context.lastUserText !== poison) return { text: `answer: ${context.lastUserText}` };
      poisonCalls += 1;
      await gate.opened;
      return { text: 'an answer from a killed process' };
    });

    await current.start();
    await current.send(poison);
    await waitFor(() => poisonCalls === 1, 'the first start of the turn', patientMs);
    await current.kill();

    await current.start();
    await waitFor(() => poisonCalls === 2, 'the re-run after the first death', patientMs);
    await current.kill();

    await startUntilParked(current, { text: 'and now?', answer: 'answer: and now?' });
    await current.stop();

    expect(poisonCalls).toBe(2);
    expect(current.botMessages().filter((message) => message.text === setAsideSentence)).toHaveLength(1);
    expect(current.botMessages().some((message) => message.text.includes('killed process'))).toBe(false);
    const { parked, unfinished } = await readStore(current);
    expect(unfinished).toEqual([]);
    expect(parked).toMatchObject([{ attempts: 2, event: { type: 'message-received', text: poison, chatId: String(faultUser) } }]);
    const listed = await runParkedCommand(current);
    expect(listed).toContain('1 parked turn(s):');
    expect(listed).toContain(`${parked[0]?.id}`);
    expect(listed).toContain(JSON.stringify(poison));
  }, 180_000);

  it('killed twice while a PDF it carries is being read, it is parked after the second death instead of read a third time', async () => {
    world = await createAgentUnderFault({ environment: { ECHO_LOG_LEVEL: 'info' } });
    const current = world;
    const caption = 'What does this report say?';
    current.proxy.hostFile('slow-pdf', { bytes: createSlowPdf('Quarterly report: revenue up 4 %') });
    current.model.setFallback((_body, context) => ({ text: `answer: ${context.lastUserText.slice(0, 40)}` }));
    const askedAboutReport = () => current.modelRequests().filter((request) => JSON.stringify(request.body?.messages ?? []).includes(caption)).length;

    /** Waits until this process logs that it started reading the PDF, checks the model has not been asked, and kills it. */
    const killDuringExtraction = async () => {
      const agent = current.agent();
      await waitFor(() => occurrences(agent.stderr(), extractionStarted) === 1, 'the PDF extraction to start', patientMs);
      expect(askedAboutReport()).toBe(0);
      await current.kill();
    };

    await current.start();
    const person = current.client();
    await person.sendMessage(person.makeMessage(caption, { document: { file_id: 'slow-pdf', file_name: 'report.pdf', mime_type: 'application/pdf' } } as never));
    await killDuringExtraction();
    await current.start();
    await killDuringExtraction();

    const third = await startUntilParked(current, { text: 'and now?', answer: 'answer: and now?' });
    expect(occurrences(third.stderr(), extractionStarted)).toBe(0);
    await current.stop();

    expect(askedAboutReport()).toBe(0);
    expect(current.botMessages().filter((message) => message.text === setAsideSentence)).toHaveLength(1);
    const { parked, unfinished } = await readStore(current);
    expect(unfinished).toEqual([]);
    expect(parked).toMatchObject([{ attempts: 2, event: { text: caption, media: [{ kind: 'document', fileName: 'report.pdf' }] } }]);
    expect(await runParkedCommand(current)).toContain('+1 file(s)');
  }, 180_000);
});
