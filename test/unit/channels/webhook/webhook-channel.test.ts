import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWebhookChannel } from '../../../../channels/webhook/webhook-channel.js';
import { createLogger } from '../../../../src/logging/create-logger.js';
import { createStore } from '../../../../src/store/create-store.js';
import type { Store } from '../../../../src/store/key-value-namespace.js';
import { createTelemetry } from '../../../../src/telemetry/telemetry.js';
import { createCallbackReceiver, postSigned } from '../../../fakes/webhook-client.js';

let store: Store;
beforeEach(async () => {
  store = await createStore({ url: 'memory:', dataDir: '.' });
});
afterEach(async () => {
  await store.close();
});

async function channelWith(secret: string | undefined, port = 0) {
  return createWebhookChannel({ name: 'webhook',
    host: '127.0.0.1',
    port,
    secret,
    waitTimeoutMs: 1000,
    ratePerMinute: 60,
    store,
    bus: { stats: () => ({ queued: 0, active: 0, sessions: 0 }) },
    telemetry: createTelemetry(),
    logger: await createLogger({ level: 'silent', pretty: false }),
    statusOfChannels: () => ({}),
      instance: () => ({ id: 'test', mode: 'single' as const, leads: [] }),
    routes: () => [],
    callbackPolicy: { attempts: 1, baseDelayMs: 1, timeoutMs: 2000 },
  });
}

describe('webhook channel send: honest deliveries', () => {
  it('fails a reply for a chat with no callback and nobody waiting, and accepts typing', async () => {
    const channel = await channelWith('s');
    const target = { channel: 'webhook', chatId: 'nowhere' };
    expect(await channel.send({ type: 'reply', target, text: 'hello', kind: 'final', causationId: 'unknown-run' })).toMatchObject({ ok: false, retryable: false, error: expect.stringContaining('no callback URL') });
    expect(await channel.send({ type: 'typing', target })).toEqual({ ok: true });
  });

  it("sends output of runs it does not know (schedules, resumed turns) to the chat's last callback URL", async () => {
    const receiver = await createCallbackReceiver();
    try {
      await store.namespace<string>('webhook-callbacks').set('ops', receiver.url);
      const channel = await channelWith('s');
      // The receiver listens on 127.0.0.1, which the callback policy refuses outside tests.
      channel.allowHttpCallbacksForTests();
      const delivery = await channel.send({ type: 'reply', target: { channel: 'webhook', chatId: 'ops' }, text: 'nightly report', kind: 'final', causationId: 'schedule-event' });
      expect(delivery).toEqual({ ok: true });
      expect(JSON.parse(receiver.received[0]?.body ?? '{}')).toMatchObject({ type: 'reply', chatId: 'ops', runId: 'schedule-event', text: 'nightly report' });
    } finally {
      await receiver.close();
    }
  });

  it('cannot sign callbacks without a secret, and says so', async () => {
    await store.namespace<string>('webhook-callbacks').set('ops', 'https://example.com/hook');
    const channel = await channelWith(undefined);
    expect(channel.messagesEnabled).toBe(false);
    expect(await channel.send({ type: 'reply', target: { channel: 'webhook', chatId: 'ops' }, text: 'x', kind: 'final' })).toMatchObject({ ok: false, error: expect.stringContaining('WEBHOOK_SECRET') });
  });
});

describe('webhook channel listening', () => {
  it('serves on the bound port, and a taken port is fatal only when the gateway has messages to take', async () => {
    const first = await channelWith(undefined);
    await first.start(async () => ({ accepted: true }));
    const port = first.address()?.port ?? 0;
    expect(port).toBeGreaterThan(0);
    expect(first.status()).toMatchObject({ state: 'running', detail: `127.0.0.1:${port}, /v1/messages off: WEBHOOK_SECRET is not set` });
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);

    const healthOnly = await channelWith(undefined, port);
    await healthOnly.start(async () => ({ accepted: true }));
    expect(healthOnly.status()).toMatchObject({ state: 'degraded', detail: expect.stringContaining('cannot listen') });

    const withMessages = await channelWith('s', port);
    await expect(withMessages.start(async () => ({ accepted: true }))).rejects.toMatchObject({ code: 'webhook-listen-failed' });
    await first.stop();
    expect(first.address()).toBeUndefined();
  });
});

describe('routes other channels mount', () => {
  it('serves a mounted route at its literal path with the parsed and raw body and lower-cased headers', async () => {
    const seen: { body: unknown; rawBody: string; headers: Readonly<Record<string, string | undefined>> }[] = [];
    const channel = createWebhookChannel({ name: 'webhook',
      host: '127.0.0.1',
      port: 0,
      waitTimeoutMs: 1000,
      ratePerMinute: 60,
      store,
      bus: { stats: () => ({ queued: 0, active: 0, sessions: 0 }) },
      telemetry: createTelemetry(),
      logger: await createLogger({ level: 'silent', pretty: false }),
      statusOfChannels: () => ({}),
      instance: () => ({ id: 'test', mode: 'single' as const, leads: [] }),
      // A path with characters a router would read as a pattern.
      routes: () => [
        {
          method: 'POST',
          path: '/tg/bot:123(x)',
          handle: async (request) => {
            seen.push(request);
            return { status: 200, body: { ok: true } };
          },
        },
      ],
    });
    await channel.start(async () => ({ accepted: true }));
    try {
      const base = `http://127.0.0.1:${channel.address()?.port}`;
      const answer = await fetch(`${base}/tg/bot:123(x)`, { method: 'POST', headers: { 'content-type': 'application/json', 'X-Telegram-Bot-Api-Secret-Token': 't' }, body: '{"update_id":1}' });
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual({ ok: true });
      expect(seen[0]).toMatchObject({ body: { update_id: 1 }, rawBody: '{"update_id":1}', headers: { 'x-telegram-bot-api-secret-token': 't' } });
      expect((await fetch(`${base}/tg/bot:123(x)`)).status).toBe(405);
      expect((await fetch(`${base}/tg/bot:999(x)`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(404);
      expect(channel.status().detail).toContain('POST /tg/bot:123(x)');
    } finally {
      await channel.stop();
    }
  });
});

describe('?wait=true when the turn stops for an approval', () => {
  it('answers 202 waiting-for-approval when the turn suspends instead of replying', async () => {
    const telemetry = createTelemetry();
    const channel = createWebhookChannel({ name: 'webhook',
      host: '127.0.0.1',
      port: 0,
      secret: 'k',
      waitTimeoutMs: 5000,
      ratePerMinute: 60,
      store,
      bus: { stats: () => ({ queued: 0, active: 0, sessions: 0 }) },
      telemetry,
      logger: await createLogger({ level: 'silent', pretty: false }),
      statusOfChannels: () => ({}),
      instance: () => ({ id: 'test', mode: 'single' as const, leads: [] }),
      routes: () => [],
    });
    const card = { approvalId: 'abc', toolName: 'deploy', summary: 'Deploy', argumentsText: '{}', risk: 'exec' as const, requestedBy: 'webhook', expiresAt: '2030-01-01T00:00:00Z', explanation: '', choices: ['once' as const, 'deny' as const] };
    // A stand-in runtime: the turn asks for approval, a card goes to the webhook chat, and the turn suspends.
    await channel.start(async (event) => {
      setImmediate(() => {
        void channel
          .send({ type: 'approval-requested', target: { channel: 'webhook', chatId: event.chatId }, causationId: event.id, approval: card })
          .then((delivery) => {
            expect(delivery).toEqual({ ok: true });
            telemetry.emitTurnFinished({ causationId: event.id, sessionKey: event.sessionKey, status: 'suspended', text: 'Waiting for approval abc' });
          });
      });
      return { accepted: true };
    });
    try {
      const answer = await postSigned({ baseUrl: `http://127.0.0.1:${channel.address()?.port}`, secret: 'k', body: { chatId: 'c', text: 'deploy' }, query: '?wait=true' });
      expect(answer).toMatchObject({ status: 202, body: { runId: expect.any(String), status: 'waiting-for-approval' } });
    } finally {
      await channel.stop();
    }
  });
});
