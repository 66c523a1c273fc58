// Fault: an allowed Telegram user sends PDF bombs to the real agent process (`node dist/src/app/main.js start`).
// Parsed in the agent, a 1 MB PDF whose content stream inflates to 1 GB killed it with V8's uncatchable
// `Fatal JavaScript invalid size error` (exit 133). Proves: the PDF is read in a child process within
// `media.pdf`'s limits, the person is told in one line, the agent stays up and answers the next message; and the
// reader process never outlives the agent (SIGKILL of the agent mid-extraction takes the reader down too).
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { findProcesses } from '../fakes/find-processes.js';
import { createInflationBombPdf, createManyPagesPdf } from '../fakes/pdf-bombs.js';
import { ensureBuilt, repositoryRoot } from '../fakes/run-compiled.js';
import { waitFor } from '../fakes/start-test-app.js';
import { type AgentUnderFault, createAgentUnderFault, faultUser, patientMs } from './agent-under-fault.js';

/** The compiled agent's reader, by its entry file (readers started from the sources by other tests do not match). */
const readerProcess = join(repositoryRoot, 'dist', 'src', 'media', 'read-pdf-text-child.mjs');

describe('a PDF bomb sent to the running agent', () => {
  let world: AgentUnderFault | undefined;
  beforeAll(() => ensureBuilt(), 120_000);
  afterEach(async () => {
    await world?.close();
    world = undefined;
  });

  async function sendDocument(current: AgentUnderFault, fileId: string, bytes: Buffer): Promise<void> {
    current.proxy.hostFile(fileId, { bytes });
    const person = current.client();
    const message = person.makeMessage('', { document: { file_id: fileId, file_name: `${fileId}.pdf`, mime_type: 'application/pdf', file_size: bytes.length } } as never) as Record<string, unknown>;
    delete message.text;
    await person.sendMessage(message as never);
  }

  it('a 1 MB PDF inflating to 1 GB: the person is told, the agent stays up and answers the next message', async () => {
    world = await createAgentUnderFault();
    const current = world;
    current.model.setFallback((_body, context) => ({ text: `answer: ${context.lastUserText.slice(0, 300)}` }));
    const agent = await current.start();
    let exited = false;
    // Fails at once, saying how, when the agent dies (on the old code: exit 133, `Fatal JavaScript invalid size error`).
    const died = agent.exited.then((exit) => {
      exited = true;
      throw new Error(`the agent died (${JSON.stringify(exit)}): ${agent.stderr().slice(-600)}`);
    });
    died.catch(() => undefined);
    const unlessDead = <T>(waiting: Promise<T>) => Promise.race([waiting, died]);

    await sendDocument(current, 'bomb-1gb', createInflationBombPdf(1024));
    await unlessDead(current.waitForBotMessage((message) => message.text === 'The PDF "bomb-1gb.pdf" could not be read: it expands past the 512 MB memory limit.', 'the line about the bomb'));
    const answer = await unlessDead(current.waitForBotMessage((message) => message.text.startsWith('answer: ') && message.text.includes('bomb-1gb.pdf'), 'the answer about the bomb'));
    expect(answer.text).toContain('the PDF could not be read: expands past the 512 MB memory limit; the person was told.]');

    await current.send('are you still there?');
    await unlessDead(current.waitForBotMessage((message) => message.text === 'answer: are you still there?', 'the answer to the next message'));
    expect(exited, agent.stderr()).toBe(false);
    expect(await findProcesses(readerProcess)).toEqual([]);
  }, 120_000);

  it('the reader dies with the agent: SIGKILL of the agent mid-extraction leaves no reader behind', async () => {
    // Limits raised so that the reader stays busy for minutes (reading all 100,000 pages), long after the agent is killed.
    world = await createAgentUnderFault({ yaml: 'media:\n  maxTextChars: 100000000\n  pdf:\n    maxPages: 1000000\n    timeoutSeconds: 600\n' });
    const current = world;
    current.model.setFallback({ text: 'unused' });
    await current.start();
    await sendDocument(current, 'pages-100k', createManyPagesPdf(100_000));
    const readers = await waitFor(async () => {
      const found = await findProcesses(readerProcess);
      return found.length > 0 ? found : undefined;
    }, 'the reader process', patientMs);
    await current.kill();
    await waitFor(async () => ((await findProcesses(readerProcess)).length === 0 ? true : undefined), `the reader ${readers.join(', ')} to die with the agent`, 10_000);
    expect(current.botMessages(faultUser).filter((message) => message.text === 'unused')).toEqual([]);
  }, 120_000);
});
