// The person's controls over memory on a real Telegram bot (emulator) and the scripted model: a Forget button per
// fact under /memory (checked press, at once, audited), numbered /forget, an approver's view and clearing of a
// group's memory, and /link between two accounts with a one-time code that survives a restart.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FactList } from '../../../src/memory/create-fact-store.js';
import { factExtractionPrompt } from '../../../src/memory/fact-extraction-prompt.js';
import type { ScriptedRequestBody } from '../../fakes/scripted-model-server.js';
import { waitFor } from '../../fakes/start-test-app.js';
import { startTelegramScenario, type TelegramScenario } from '../../fakes/telegram-scenario.js';

const groupId = -100800;
const memoryYaml = `memory:\n  enabled: true\nchannels:\n  telegram:\n    groups: "${groupId}"\n`;
const isExtraction = (body: ScriptedRequestBody | undefined) => body?.messages?.[0]?.content === factExtractionPrompt;

/** "my X is Y" is the speaker's, "our X is Y" the chat's. */
function extraction(body: ScriptedRequestBody): { text: string } {
  const text = String(body.messages?.[1]?.content ?? '');
  const facts: { subject: string; statement: string; about: 'speaker' | 'chat' }[] = [];
  for (const match of text.matchAll(/my ([a-z ]+?) is (\w+)/gi)) facts.push({ subject: match[1] ?? '', statement: `Their ${match[1]} is ${match[2]}.`, about: 'speaker' });
  for (const match of text.matchAll(/our ([a-z ]+?) is (\w+)/gi)) facts.push({ subject: match[1] ?? '', statement: `The ${match[1]} is ${match[2]}.`, about: 'chat' });
  return { text: JSON.stringify({ facts }) };
}

type AuditLine = { kind: string; userId?: string; outcome: string; arguments?: Record<string, unknown> };
function auditLines(dataDir: string): AuditLine[] {
  const file = join(dataDir, 'audit', 'audit.jsonl');
  return (existsSync(file) ? readFileSync(file, 'utf8').split('\n') : []).filter((line) => line !== '').map((line) => JSON.parse(line) as AuditLine);
}

describe('memory controls over Telegram', () => {
  let scenario: TelegramScenario | undefined;
  afterEach(async () => {
    await scenario?.stop();
    scenario = undefined;
  });

  function systemPromptOf(current: TelegramScenario, question: string): string {
    const request = current.modelRequests().find((entry) => !isExtraction(entry.body) && JSON.stringify(entry.body?.messages).includes(question));
    return String(request?.body?.messages?.[0]?.content ?? '');
  }

  it('/memory carries a Forget button per fact; a press removes the fact from the next turn at once and is audited; a forged or foreign press forgets nothing', async () => {
    scenario = await startTelegramScenario({ allowFrom: '1001,1002', yaml: memoryYaml });
    const current = scenario;
    current.model.setFallback((body, context) => (isExtraction(body) ? extraction(body) : { text: `ok: ${context.lastUserText.split('\n')[0]}` }));
    const alice = current.client({ userId: 1001, userName: 'alice' });
    const bob = current.client({ userId: 1002, userName: 'bob' });
    await alice.sendMessage(alice.makeMessage('my home city is Paris and my favourite drink is tea'));
    await current.waitForBotMessage((message) => message.text.startsWith('ok: my home city'), 'the answer');
    await current.testApp.app.bus.idle();

    await alice.sendMessage(alice.makeMessage('/memory'));
    const listing = await current.waitForBotMessage((message) => message.text.startsWith('What I remember here:'), 'the /memory listing');
    expect(listing.text).toMatch(/^1\. Their home city is Paris\. \(from @alice, \d{4}-\d{2}-\d{2}\)$/m);
    const buttons = (listing.keyboard ?? []).flat();
    expect(buttons.map((button) => button.text)).toEqual(['🗑 Forget 1', '🗑 Forget 2']);
    const [forgetCity] = buttons;

    // Bob presses Alice's button (as if forwarded): the fact is not in any scope Bob may reach, so nothing happens.
    await bob.sendCallback(bob.makeCallbackQuery(forgetCity?.callback_data ?? '', { message: { message_id: listing.messageId } }));
    await waitFor(() => current.proxy.callsOf('answerCallbackQuery')[0], 'the answer to the foreign press');
    expect(current.proxy.callsOf('answerCallbackQuery')[0]?.body).toMatchObject({ show_alert: true, text: 'That fact is already gone, or is not yours to forget.' });
    // Data no button ever carried is refused by the channel's schema.
    await alice.sendCallback(alice.makeCallbackQuery('e1:m:../../etc', { message: { message_id: listing.messageId } }));
    await waitFor(() => current.proxy.callsOf('answerCallbackQuery')[1], 'the answer to the forged press');
    expect(current.proxy.callsOf('answerCallbackQuery')[1]?.body).toMatchObject({ show_alert: true, text: 'This button has expired or is not known.' });
    const stored = async () => JSON.stringify(await current.testApp.app.store.namespace<FactList>('memory-facts').entries());
    expect(await stored()).toContain('Paris');

    await alice.sendCallback(alice.makeCallbackQuery(forgetCity?.callback_data ?? '', { message: { message_id: listing.messageId } }));
    await waitFor(() => current.proxy.callsOf('answerCallbackQuery')[2], 'the answer to the press');
    expect(current.proxy.callsOf('answerCallbackQuery')[2]?.body).toMatchObject({ text: 'Forgotten: Their home city is Paris.' });
    expect(await stored()).not.toContain('Paris');
    await alice.sendMessage(alice.makeMessage('where do I live?'));
    await current.waitForBotMessage((message) => message.text === 'ok: where do I live?', 'the answer after the press');
    const prompt = systemPromptOf(current, 'where do I live?');
    expect(prompt).toContain('Their favourite drink is tea.');
    expect(prompt).not.toContain('Paris');
    const entry = await waitFor(() => auditLines(current.testApp.dataDir).find((line) => line.kind === 'memory-forgotten'), 'the audit entry');
    expect(entry).toMatchObject({ userId: '1001', outcome: 'forgotten:1', arguments: { via: 'button', scope: { kind: 'person', userId: '1001' } } });

    // Numbered: the list's numbers (as WeChat and QQ people answer) name the facts.
    await alice.sendMessage(alice.makeMessage('/memory'));
    await current.waitForBotMessage((message) => message.text.startsWith('What I remember here:') && !message.text.includes('Paris'), 'the second listing');
    // A number past the list is read as words: no fact says "7".
    await alice.sendMessage(alice.makeMessage('/forget 7'));
    await current.waitForBotMessage((message) => message.text === 'I hold no fact here that contains "7".', 'a number past the list read as words');
    await alice.sendMessage(alice.makeMessage('/forget 1'));
    await current.waitForBotMessage((message) => message.text === 'Forgotten: 1 fact.', 'the numbered forget');
    expect(await stored()).not.toContain('tea');
    // The list still says 1, but that fact is gone now.
    await alice.sendMessage(alice.makeMessage('/forget 1'));
    await current.waitForBotMessage((message) => message.text.startsWith('Your last /memory list here has no fact numbered 1.'), 'the number of a fact already forgotten');
  });

  it("approvers see and clear a group's memory; other members are refused", async () => {
    scenario = await startTelegramScenario({ allowFrom: '1001,1002', approvers: '1001', yaml: memoryYaml });
    const current = scenario;
    current.model.setFallback((body, context) => (isExtraction(body) ? extraction(body) : { text: `ok: ${context.lastUserText.split('\n')[0]}` }));
    const aliceInGroup = current.client({ userId: 1001, chatId: groupId, type: 'supergroup', userName: 'alice' });
    const bobInGroup = current.client({ userId: 1002, chatId: groupId, type: 'supergroup', userName: 'bob' });
    await bobInGroup.sendMessage(bobInGroup.makeMessage('@TestNameBot our meeting day is Tuesday and our office is Lyon'));
    await current.waitForBotMessage((message) => message.text.startsWith('ok: our meeting day'), 'the answer in the group');
    await current.testApp.app.bus.idle();

    await bobInGroup.sendMessage(bobInGroup.makeMessage('/memory@TestNameBot group'));
    await current.waitForBotMessage((message) => message.text === "Only an approver of this chat can see or clear the group's memory.", 'the refusal');
    await bobInGroup.sendMessage(bobInGroup.makeMessage('/forget@TestNameBot group all'));
    await waitFor(() => current.botMessages(groupId).filter((message) => message.text.startsWith('Only an approver')).length === 2, 'the second refusal');

    await aliceInGroup.sendMessage(aliceInGroup.makeMessage('/memory@TestNameBot group'));
    const listing = await current.waitForBotMessage((message) => message.text.startsWith("This group's memory"), 'the group listing');
    expect(listing.text).toContain('1. The meeting day is Tuesday. (from @bob,');
    expect(listing.text).toContain('2. The office is Lyon. (from @bob,');
    await aliceInGroup.sendMessage(aliceInGroup.makeMessage('/forget@TestNameBot group all'));
    // The group's archived exchange (Bob's message and the answer) is cleared with its facts.
    await current.waitForBotMessage((message) => message.text === 'Forgotten: 2 facts. Forgotten: 1 past exchange.', 'the group cleared');
    const keys = (await current.testApp.app.store.namespace<FactList>('memory-facts').entries()).map(([key]) => key);
    expect(keys).not.toContain(`group|telegram|${groupId}`);
    expect((await current.testApp.app.store.namespace('memory-exchanges').entries()).map(([key]) => key)).not.toContain(`group|telegram|${groupId}`);
    const entry = await waitFor(() => auditLines(current.testApp.dataDir).find((line) => line.kind === 'memory-forgotten'), 'the audit entry');
    expect(entry).toMatchObject({ userId: '1001', outcome: 'forgotten:2', arguments: { cleared: true } });

    // In a private chat there is no group to show.
    const alice = current.client({ userId: 1001, userName: 'alice' });
    await alice.sendMessage(alice.makeMessage('/memory@TestNameBot group'));
    await current.waitForBotMessage((message) => message.text.startsWith('Send this in the group'), 'the private refusal');
  });

  it('/link: a one-time code (hashed in the store, surviving a restart) joins two accounts into one person scope; used twice it is refused', async () => {
    scenario = await startTelegramScenario({ allowFrom: '1001,1003', yaml: memoryYaml });
    const current = scenario;
    current.model.setFallback((body, context) => (isExtraction(body) ? extraction(body) : { text: `ok: ${context.lastUserText.split('\n')[0]}` }));
    const first = current.client({ userId: 1001, userName: 'alice' });
    await first.sendMessage(first.makeMessage('my home city is Paris'));
    await current.waitForBotMessage((message) => message.text === 'ok: my home city is Paris', 'the answer');
    await current.testApp.app.bus.idle();
    await first.sendMessage(first.makeMessage('/link'));
    const issued = await current.waitForBotMessage((message) => message.text.startsWith('Your link code:'), 'the code');
    const code = /Your link code: ([A-Z0-9]{8})/.exec(issued.text)?.[1] ?? '';
    expect(code).toHaveLength(8);
    const storedCodes = JSON.stringify(await current.testApp.app.store.namespace('memory-link-codes').entries());
    expect(storedCodes).not.toContain(code);
    expect(storedCodes).toContain('"userId":"1001"');

    await current.restartApp();
    const second = current.client({ userId: 1003, userName: 'alice_phone' });
    await second.sendMessage(second.makeMessage(`/link ${code.toLowerCase()}`));
    await current.waitForBotMessage((message) => message.text.startsWith('Linked:'), 'the link');
    await second.sendMessage(second.makeMessage(`/link ${code}`));
    await current.waitForBotMessage((message) => message.text.startsWith('That link code is unknown, already used or expired.'), 'the second use refused');
    await second.sendMessage(second.makeMessage('where do I live?'));
    await current.waitForBotMessage((message) => message.text === 'ok: where do I live?', 'the answer on the second account');
    expect(systemPromptOf(current, 'where do I live?')).toContain('Their home city is Paris.');
    const entry = await waitFor(() => auditLines(current.testApp.dataDir).find((line) => line.kind === 'memory-linked'), 'the audit entry');
    expect(entry).toMatchObject({ userId: '1003', outcome: 'linked' });
  });
});
