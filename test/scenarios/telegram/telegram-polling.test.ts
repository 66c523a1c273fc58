import { afterEach, describe, expect, it } from 'vitest';
import { type TelegramChannel, createTelegramChannel } from '../../../channels/telegram/index.js';
import type { InboundEvent } from '../../../src/events/inbound-event.js';
import { messagesFor } from '../../../src/i18n/messages.js';
import { withChannelStrings } from '../../../src/i18n/with-channel-strings.js';
import { telegramStrings } from '../../../channels/telegram/telegram-strings.js';
import { createLogger } from '../../../src/logging/create-logger.js';
import { createStore } from '../../../src/store/create-store.js';
import type { Store } from '../../../src/store/key-value-namespace.js';
import { waitFor } from '../../fakes/start-test-app.js';
import { startTelegramEmulator, type TelegramEmulator } from '../../fakes/telegram-emulator.js';
import { startTelegramFaultProxy, type TelegramFaultProxy } from '../../fakes/telegram-fault-proxy.js';

const token = '987654321:AApollingLoopTestTokenForTheEmulator';

type Harness = { emulator: TelegramEmulator; proxy: TelegramFaultProxy; store: Store; channel: TelegramChannel; events: InboundEvent[]; logLines: string[] };

async function startHarness(polling: { stallTimeoutMs?: number; retryBaseMs?: number }, prepare?: (proxy: TelegramFaultProxy) => void): Promise<Harness> {
  const emulator = await startTelegramEmulator();
  const proxy = await startTelegramFaultProxy(emulator.apiRoot);
  prepare?.(proxy);
  const store = await createStore({ url: 'memory:', dataDir: '.' });
  const logLines: string[] = [];
  const logger = await createLogger({ level: 'debug', pretty: false, destination: { write: (line: string) => void logLines.push(line) } });
  const channel = createTelegramChannel({ name: 'telegram',
    token,
    apiRoot: proxy.apiRoot,
    mode: 'polling',
    allowFrom: ['1001'],
    approvers: [],
    groups: [],
    sessionPerUser: false,
    streaming: false,
    messages: withChannelStrings(messagesFor('en'), telegramStrings),
    logger,
    store,
    timezone: 'UTC',
    polling: { idleSleepMs: 20, ...polling },
  });
  const events: InboundEvent[] = [];
  await channel.start(async (event) => {
    events.push(event);
    return { accepted: true };
  });
  return { emulator, proxy, store, channel, events, logLines };
}

async function say(harness: Harness, text: string): Promise<void> {
  const client = harness.emulator.server.getClient(token, { userId: 1001, chatId: 1001 });
  await client.sendMessage(client.makeMessage(text));
}

describe('telegram polling loop', () => {
  let harness: Harness | undefined;
  afterEach(async () => {
    await harness?.channel.stop();
    await harness?.proxy.close();
    await harness?.emulator.stop();
    await harness?.store.close();
    harness = undefined;
  });

  it('reports a 409 conflict in one clear line, retries with backoff, and recovers', async () => {
    harness = await startHarness({ retryBaseMs: 20 }, (proxy) =>
      proxy.inject('getUpdates', { status: 409, body: { ok: false, error_code: 409, description: 'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running' } }, { times: 3 }),
    );
    await say(harness, 'after the conflict');
    const event = await waitFor(() => harness?.events[0], 'the message after the conflict');
    expect(event).toMatchObject({ type: 'message-received', text: 'after the conflict', origin: 'user', unattended: false });
    expect(harness.proxy.callsOf('getUpdates').filter((call) => call.status === 409)).toHaveLength(3);
    expect(harness.logLines.filter((line) => line.includes('409 Conflict'))).toHaveLength(1);
    expect(harness.channel.status().state).toBe('running');
  });

  it('restarts a stalled poll', async () => {
    harness = await startHarness({ stallTimeoutMs: 300 }, (proxy) => proxy.inject('getUpdates', 'hang'));
    await say(harness, 'after the stall');
    await waitFor(() => harness?.events[0], 'the message after the stall');
    expect(harness.logLines.some((line) => line.includes('poll stalled'))).toBe(true);
  });

  it('stores the offset after dispatch, never logs the token, and stops promptly in the middle of a poll', async () => {
    harness = await startHarness({ stallTimeoutMs: 120_000 });
    await say(harness, 'one');
    const event = await waitFor(() => harness?.events[0], 'the message');
    const updateId = (event.raw as { update_id: number }).update_id;
    expect(await harness.store.namespace<number>('channel-offsets').get('telegram:987654321')).toBe(updateId + 1);

    const hanging = harness.proxy.calls.length;
    harness.proxy.inject('getUpdates', 'hang', { times: 1000 });
    await waitFor(() => harness?.proxy.calls.slice(hanging).some((call) => call.method === 'getUpdates' && call.status === 0), 'a poll that never answers');
    await harness.channel.stop();
    expect(harness.channel.status().state).toBe('stopped');
    expect(harness.logLines.join('\n')).not.toContain(token.split(':')[1]);
  });
});
