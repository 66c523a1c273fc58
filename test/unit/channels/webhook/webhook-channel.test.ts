import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWebhookChannel } from '../../../../channels/webhook/webhook-channel.js';
import { createLogger } from '../../../../src/logging/create-logger.js';
import { createStore } from '../../../../src/store/create-store.js';
import type { Store } from '../../../../src/store/key-value-namespace.js';
import { createTelemetry } from '../../../../src/telemetry/telemetry.js';
import { serveOnGateway } from '../../../fakes/serve-on-gateway.js';
import { createCallbackReceiver, postSigned } from '../../../fakes/webhook-client.js';

let store: Store;
beforeEach(async () => {
  store = await createStore({ url: 'memory:', dataDir: '.' });
});
afterEach(async () => {
  await store.close();
});

async function channelWith(secret: string | undefined) {
  return createWebhookChannel({ name: 'webhook',
    secret,
    waitTimeoutMs: 1000,
    ratePerMinute: 60,
    store,
    telemetry: createTelemetry(),
    logger: await createLogger({ level: 'silent', pretty: false }),
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

describe('webhook channel route', () => {
  it('offers POST /v1/messages to the gateway only with a secret', async () => {
    expect((await channelWith(undefined)).messageRoute).toBeUndefined();
    expect((await channelWith('s')).messageRoute).toMatchObject({ method: 'POST', path: '/v1/messages' });
  });
});

describe('?wait=true when the turn stops for an approval', () => {
  it('answers 202 waiting-for-approval when the turn suspends instead of replying', async () => {
    const telemetry = createTelemetry();
    const channel = createWebhookChannel({ name: 'webhook',
      secret: 'k',
      waitTimeoutMs: 5000,
      ratePerMinute: 60,
      store,
      telemetry,
      logger: await createLogger({ level: 'silent', pretty: false }),
    });
    const { gateway, baseUrl } = await serveOnGateway({ routes: [channel.messageRoute], store, telemetry });
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
      const answer = await postSigned({ baseUrl, secret: 'k', body: { chatId: 'c', text: 'deploy' }, query: '?wait=true' });
      expect(answer).toMatchObject({ status: 202, body: { runId: expect.any(String), status: 'waiting-for-approval' } });
    } finally {
      await gateway.stop();
      await channel.stop();
    }
  });
});
