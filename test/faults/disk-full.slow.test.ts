// Fault: the real agent's SQLite store sits on a tiny tmpfs that the test fills after start-up, so every store
// write fails (SQLITE_FULL): in the middle of a turn, and for everything that arrives meanwhile.
// Proves: no false confirmation (the memory tool is not run, and the scripted model's "Remembered" answer, which it
// gives whatever the tool said, never reaches the person, who is told the conversation could not be saved); an
// approval press is not announced as decided (the person is told it was not saved, the card keeps its buttons,
// nothing runs); nothing is lost: once space is freed, the messages sent meanwhile ("remember k2", "are you
// there?", re-delivered by Telegram since they were not acknowledged) and the interrupted one (re-run from the
// journal by the 15 s sweep) are each answered once, truthfully, and a new press decides the card.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { messagesFor } from '../../src/i18n/messages.js';
import { ensureBuilt } from '../fakes/run-compiled.js';
import type { ScriptedRequestBody, ScriptedStep } from '../fakes/scripted-model-server.js';
import { waitFor } from '../fakes/start-test-app.js';
import { createGate } from '../fakes/webhook-client.js';
import { type AgentUnderFault, createAgentUnderFault, endsWithToolResult, patientMs, readRequest } from './agent-under-fault.js';
import { execApprovalYaml } from './exec-approval-config.js';
import { mountSmallDisk, type SmallDisk, smallDiskUnavailable } from './small-disk.js';

const unavailable = smallDiskUnavailable();
if (unavailable !== undefined) process.stderr.write(`disk-full.slow.test.ts skipped: ${unavailable}\n`);
const text = messagesFor('en');
/** What the scripted model says after the memory tool, whatever the tool answered: a confirmation only true if it ran. */
const pretended = (key: string) => `Remembered "${key}" for you.`;

/** A model that does what each message asks and, after the memory tool, claims success whatever the tool said. */
function scriptedAnswer(body: ScriptedRequestBody, lastUserText: string): ScriptedStep {
  if (endsWithToolResult(body)) {
    const call = lastToolCall(body);
    return { text: call?.name === 'memory' ? pretended(String(JSON.parse(call.arguments ?? '{}').key)) : 'Counter bumped.' };
  }
  // The approval was decided after the chat moved on: the results come as a note from the system.
  if (lastUserText.includes('was settled')) return { text: 'Counter bumped.' };
  const remember = /remember (k\d): (.+)/.exec(lastUserText);
  if (remember) return { toolCalls: [{ name: 'memory', arguments: { action: 'remember', key: remember[1], value: remember[2] } }] };
  if (lastUserText.includes('counter')) return { toolCalls: [{ name: 'exec', arguments: { command: 'echo run >> counter.txt' } }] };
  return { text: `echo: ${lastUserText}` };
}

/** The last tool call of the last assistant message that made calls (OpenAI format). */
function lastToolCall(body: ScriptedRequestBody): { readonly name?: string; readonly arguments?: string } | undefined {
  const calling = [...(body.messages ?? [])].reverse().find((message) => Array.isArray(message.tool_calls));
  const calls = (calling?.tool_calls ?? []) as readonly { readonly function?: { readonly name?: string; readonly arguments?: string } }[];
  return calls.at(-1)?.function;
}

describe.skipIf(unavailable !== undefined)('a store that refuses writes (disk full)', () => {
  let world: AgentUnderFault | undefined;
  let disk: SmallDisk | undefined;
  beforeAll(() => ensureBuilt(), 120_000);
  afterEach(async () => {
    await world?.close();
    world = undefined;
    disk?.remove();
    disk = undefined;
  });

  it('confirms nothing it did not save, loses nothing, and answers once space is back', async () => {
    disk = mountSmallDisk(8);
    const small = disk;
    world = await createAgentUnderFault({ yaml: execApprovalYaml, dataDir: join(small.path, 'data') });
    const current = world;
    const counter = join(current.workFolder, 'workspace', 'counter.txt');
    const gate = createGate();
    const held = createGate();
    current.model.setFallback((body, context) => scriptedAnswer(body, context.lastUserText));

    await current.start();
    // A card waiting for a decision, made while the disk still has room.
    await current.send('bump the counter');
    const card = await current.waitForBotMessage((message) => (message.keyboard?.length ?? 0) > 0, 'the approval card');

    // A turn in flight when the disk fills: its model call is held until the disk is full.
    current.model.enqueue(async (body, context) => {
      held.open();
      await gate.opened;
      return scriptedAnswer(body, context.lastUserText);
    });
    await current.send('please remember k1: my favourite colour is green');
    await held.opened;
    expect(small.fill()).toBeGreaterThan(0);
    gate.open();
    await current.waitForBotMessage((message) => message.text === text.storeUnavailable, 'the message that the conversation could not be saved');

    // A press while the disk is full.
    await current.press(card, /Approve/);
    const refusal = await waitFor(() => current.proxy.callsOf('answerCallbackQuery').find((call) => call.body.show_alert === true), 'the answer to the press', patientMs);
    expect(refusal.body.text).toBe(text.decisionNotSaved);
    // And messages while the disk is full.
    await current.send('please remember k2: my editor is vim');
    await current.send('are you there?');
    await waitFor(() => current.proxy.callsOf('getUpdates').length > 0 && current.emulator.server.storage.userMessages.every((update) => update.isRead), 'the agent to have fetched the message', patientMs);

    // Nothing was confirmed: no "Remembered", no "Approved", nothing ran, the model was told the truth.
    expect(current.botMessages().filter((message) => /Remembered|Approved/.test(message.text))).toEqual([]);
    expect(current.proxy.callsOf('answerCallbackQuery').filter((call) => /Approved/.test(String(call.body.text)))).toEqual([]);
    expect(current.botMessages().find((message) => message.messageId === card.messageId)?.keyboard?.length).toBeGreaterThan(0);
    expect(existsSync(counter)).toBe(false);
    const toldAboutMemory = current.modelRequests().flatMap((request) => readRequest(request).toolResults);
    expect(toldAboutMemory.some((result) => result.startsWith('Remembered'))).toBe(false);

    small.free();
    await current.waitForBotMessage((message) => message.text === 'echo: are you there?', 'the answer to the message sent while the disk was full');
    await current.waitForBotMessage((message) => message.text === pretended('k2'), 'the memory request sent while the disk was full, answered');
    await current.waitForBotMessage((message) => message.text === pretended('k1'), 'the interrupted message answered after the space came back');
    await current.press(card, /Approve/);
    await current.waitForBotMessage((message) => message.text === 'Counter bumped.', 'the approved command after the space came back');
    await current.stop();

    expect(readFileSync(counter, 'utf8')).toBe('run\n');
    expect(current.botMessages().filter((message) => message.text === 'echo: are you there?')).toHaveLength(1);
    expect(current.botMessages().filter((message) => message.text === pretended('k1'))).toHaveLength(1);
    expect(current.botMessages().filter((message) => message.text === pretended('k2'))).toHaveLength(1);
    const remembered = current.modelRequests().flatMap((request) => readRequest(request).toolResults);
    expect(remembered).toContain('Remembered "k1".');
    expect(remembered).toContain('Remembered "k2".');
  }, 120_000);
});
