import { afterEach, describe, expect, it } from 'vitest';
import { createTelegramChannel } from '../../../../channels/telegram/index.js';
import type { InboundEvent } from '../../../../src/events/inbound-event.js';
import { messagesFor } from '../../../../src/i18n/messages.js';
import { withChannelStrings } from '../../../../src/i18n/with-channel-strings.js';
import { telegramStrings } from '../../../../channels/telegram/telegram-strings.js';
import { createLogger } from '../../../../src/logging/create-logger.js';
import { jsonRequest } from '../../../fakes/json-request.js';
import { createStore } from '../../../../src/store/create-store.js';
import type { Store } from '../../../../src/store/key-value-namespace.js';

const update = { update_id: 500, message: { message_id: 3, date: 0, from: { id: 1001, is_bot: false, first_name: 'Alice' }, chat: { id: 1001, type: 'private' }, text: 'via webhook' } };

type ApiCall = { method: string; payload: Readonly<Record<string, unknown>> };

/** A Telegram channel in webhook mode over a recording Bot API (getMe answers EchoBot), on an in-memory store. */
async function webhookChannel(store: Store, groups: readonly string[]) {
  const calls: ApiCall[] = [];
  const channel = createTelegramChannel({ name: 'telegram',
    token: '42:AAwebhookModeTestToken_xxxxxxxxxxxx',
    apiRoot: 'http://127.0.0.1:9',
    mode: 'webhook',
    webhookUrl: 'https://bot.example.com/hooks/telegram',
    webhookSecret: 'a-long-webhook-secret',
    allowFrom: ['1001'],
    approvers: [],
    groups,
    sessionPerUser: false,
    streaming: false,
    messages: withChannelStrings(messagesFor('en'), telegramStrings),
    logger: await createLogger({ level: 'silent', pretty: false }),
    store,
    timezone: 'UTC',
    api: {
      async call(method, payload) {
        calls.push({ method, payload });
        return method === 'getMe' ? { id: 666, is_bot: true, first_name: 'Echo', username: 'EchoBot' } : true;
      },
    },
  });
  const route = channel.webhookRoute;
  if (!route) throw new Error('no webhook route');
  const events: InboundEvent[] = [];
  await channel.start(async (event) => {
    events.push(event);
    return { accepted: true };
  });
  return { channel, route, calls, events };
}

describe('telegram webhook mode', () => {
  let store: Store | undefined;
  afterEach(async () => store?.close());

  it('sets the webhook with its secret, refuses requests without it, and dispatches each update once', async () => {
    store = await createStore({ url: 'memory:', dataDir: '.' });
    const { channel, route, calls, events } = await webhookChannel(store, []);
    expect(route).toMatchObject({ method: 'POST', path: '/hooks/telegram' });
    expect(calls.find((call) => call.method === 'setWebhook')?.payload).toMatchObject({
      url: 'https://bot.example.com/hooks/telegram',
      secret_token: 'a-long-webhook-secret',
      allowed_updates: ['message', 'callback_query'],
    });
    expect(calls.some((call) => call.method === 'getUpdates')).toBe(false);

    const body = JSON.stringify(update);
    expect(await route.handle(jsonRequest({ body: update, rawBody: body, headers: {} }))).toMatchObject({ status: 401 });
    expect(await route.handle(jsonRequest({ body: update, rawBody: body, headers: { 'x-telegram-bot-api-secret-token': 'wrong-webhook-secret!' } }))).toMatchObject({ status: 401 });
    expect(events).toHaveLength(0);

    const headers = { 'x-telegram-bot-api-secret-token': 'a-long-webhook-secret' };
    expect(await route.handle(jsonRequest({ body: update, rawBody: body, headers }))).toMatchObject({ status: 200 });
    expect(await route.handle(jsonRequest({ body: update, rawBody: body, headers }))).toMatchObject({ status: 200 });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'message-received', text: 'via webhook', origin: 'user', unattended: false });
    await channel.stop();
    expect(await route.handle(jsonRequest({ body: { ...update, update_id: 501 }, rawBody: body, headers }))).toMatchObject({ status: 503 });
  });

  it('in a forum group: stays silent on a bare command for another bot, and a topic message reaches the model without an empty quote', async () => {
    store = await createStore({ url: 'memory:', dataDir: '.' });
    const forum = { id: -1001234567890, title: 'Team', is_forum: true, type: 'supergroup' };
    const { channel, route, calls, events } = await webhookChannel(store, [String(forum.id)]);
    const headers = { 'x-telegram-bot-api-secret-token': 'a-long-webhook-secret' };
    const post = (body: unknown) => route.handle(jsonRequest({ body, rawBody: JSON.stringify(body), headers }));
    const from = { id: 1001, is_bot: false, first_name: 'Alice', username: 'alice', language_code: 'en' };
    const topicCreated = { message_id: 118, from, chat: forum, date: 1_764_500_000, message_thread_id: 118, forum_topic_created: { name: 'Ops', icon_color: 7_322_096 }, is_topic_message: true };
    calls.length = 0;

    // Real shapes: a bare /report meant for another bot, then a mention inside a forum topic.
    await post({ update_id: 900, message: { message_id: 119, from, chat: forum, date: 1_764_500_010, text: '/report', entities: [{ offset: 0, length: 7, type: 'bot_command' }] } });
    await post({ update_id: 901, message: { message_id: 120, from, chat: forum, date: 1_764_500_020, message_thread_id: 118, reply_to_message: topicCreated, text: '@EchoBot status?', entities: [{ offset: 0, length: 8, type: 'mention' }], is_topic_message: true } });

    expect(calls.filter((call) => call.method === 'sendMessage')).toEqual([]);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'message-received', text: 'status?', threadId: '118' });
    expect(events[0] && 'quoted' in events[0] ? events[0].quoted : undefined).toBeUndefined();
    await channel.stop();
  });
});
