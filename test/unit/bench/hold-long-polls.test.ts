// The emulator's long polling (test/fakes/hold-long-polls.ts), which the Telegram benchmark runs on, against the
// Bot API's own behaviour: a poll with a timeout waits for an update, an abandoned poll takes nothing.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTelegramEmulator, type TelegramEmulator } from '../../fakes/telegram-emulator.js';

const token = '444444444:AAlongPollTokenForTheEmulator00000';
let emulator: TelegramEmulator;

beforeEach(async () => {
  emulator = await startTelegramEmulator({ longPolling: true });
});
afterEach(async () => {
  await emulator.stop();
});

type Polled = { readonly ok: boolean; readonly result: readonly { readonly update_id: number; readonly message?: { readonly text?: string } }[] };

async function getUpdates(body: Record<string, unknown>, signal?: AbortSignal): Promise<Polled> {
  const response = await fetch(`${emulator.apiRoot}/bot${token}/getUpdates`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal });
  return (await response.json()) as Polled;
}

const sendAs = (userId: number, text: string) => {
  const client = emulator.privateChatClient(token, userId);
  return client.sendMessage(client.makeMessage(text));
};

describe('the emulator with long polling', () => {
  it('holds a poll with a timeout until a message arrives, then answers with it', async () => {
    let answered = false;
    const poll = getUpdates({ timeout: 20 }).then((polled) => {
      answered = true;
      return polled;
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(answered).toBe(false);
    await sendAs(9001, 'hello while you wait');
    const polled = await poll;
    expect(polled.ok).toBe(true);
    expect(polled.result.map((update) => update.message?.text)).toEqual(['hello while you wait']);
  });

  it('answers at once when an update is already there, and without a timeout at once either way', async () => {
    await sendAs(9002, 'already here');
    expect((await getUpdates({ timeout: 20 })).result.map((update) => update.message?.text)).toEqual(['already here']);
    expect((await getUpdates({ timeout: 0 })).result).toEqual([]);
    expect((await getUpdates({})).result).toEqual([]);
  });

  it('answers with nothing when the timeout passes', async () => {
    expect(await getUpdates({ timeout: 1 })).toEqual({ ok: true, result: [] });
  });

  it('leaves a message for the next poll when the poll that waited for it was abandoned', async () => {
    const abandoned = new AbortController();
    const poll = getUpdates({ timeout: 20 }, abandoned.signal).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 100));
    abandoned.abort();
    expect(await poll).toBeInstanceOf(Error);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await sendAs(9003, 'after the abandoned poll');
    expect((await getUpdates({ timeout: 20 })).result.map((update) => update.message?.text)).toEqual(['after the abandoned poll']);
  });

  it('sends every other request to the emulator as before', async () => {
    const response = await fetch(`${emulator.apiRoot}/bot${token}/sendMessage`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ chat_id: 9004, text: 'from the bot' }) });
    expect(response.status).toBe(200);
    expect(emulator.botMessages(token, 9004).map((message) => message.text)).toEqual(['from the bot']);
  });

  it('a body that is not JSON is answered at once, and a stop does not wait for held polls', async () => {
    const garbled = await fetch(`${emulator.apiRoot}/bot${token}/getUpdates`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{not json' });
    expect(await garbled.json()).toEqual({ ok: true, result: [] });
    const held = getUpdates({ timeout: 30 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    await emulator.stop();
    expect((await held).result).toEqual([]);
    emulator = await startTelegramEmulator({ longPolling: true });
  });
});
