import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedModelServer, type ScriptedModelServer } from '../../fakes/scripted-model-server.js';
import { startTestApp, type TestApp, waitFor } from '../../fakes/start-test-app.js';
import { createCallbackReceiver, createGate, gatewayOf, getPath, postSigned } from '../../fakes/webhook-client.js';

const secret = 'limits-secret';
let model: ScriptedModelServer;
let folder: string;
const running: TestApp[] = [];

beforeAll(async () => {
  model = await createScriptedModelServer();
  folder = mkdtempSync(join(tmpdir(), 'echo-webhook-limits-'));
});
afterAll(async () => {
  await model.close();
  rmSync(folder, { recursive: true, force: true });
});
afterEach(async () => {
  model.setFallback({});
  while (running.length > 0) await running.pop()?.stop();
});

async function startWith(yaml: string) {
  const configFile = join(folder, `config-${running.length}-${Date.now()}.yaml`);
  writeFileSync(configFile, yaml);
  const test = await startTestApp({ configFile, environment: { OPENAI_BASE_URL: model.url, WEBHOOK_SECRET: secret, GATEWAY_PORT: '0' } });
  running.push(test);
  const gateway = gatewayOf(test.app);
  gateway.channel.allowHttpCallbacksForTests();
  return { test, baseUrl: gateway.baseUrl };
}

describe('webhook limits', () => {
  it('429 past the per-sender rate, with Retry-After; other senders still pass', async () => {
    const { baseUrl } = await startWith('channels:\n  webhook:\n    ratePerMinute: 2\n');
    let sent = 0;
    // Each message is its own request (another body): an identical one would be refused as a replay.
    const send = (senderId: string) => {
      sent += 1;
      return postSigned({ baseUrl, secret, body: { chatId: `rate-${senderId}`, senderId, text: `hi ${sent}` } });
    };
    expect((await send('busy-sender')).status).toBe(202);
    expect((await send('busy-sender')).status).toBe(202);
    const limited = await send('busy-sender');
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ error: { code: 'rate-limited' } });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await send('another-sender')).status).toBe(202);
  });

  it('503 when the bus is full, and serves again once it drains', async () => {
    const { test, baseUrl } = await startWith('bus:\n  maxConcurrentTurns: 1\n  maxQueued: 1\n  maxQueuedPerSession: 1\n');
    // The model holds every answer until the test lets go: the bus stays full for as long as the test needs.
    const gate = createGate();
    model.setFallback(async () => {
      await gate.opened;
      return { text: 'slowly' };
    });
    const first = await postSigned({ baseUrl, secret, body: { chatId: 'bus-1', text: 'one' } });
    const second = await postSigned({ baseUrl, secret, body: { chatId: 'bus-2', text: 'two' } });
    const third = await postSigned({ baseUrl, secret, body: { chatId: 'bus-3', text: 'three' }, headers: { 'idempotency-key': 'third' } });
    expect([first.status, second.status]).toEqual([202, 202]);
    expect(third.status).toBe(503);
    expect(third.body).toMatchObject({ error: { code: 'busy' } });
    expect(third.headers.get('retry-after')).toBe('5');

    model.setFallback({ text: 'fast again' });
    gate.open();
    await test.app.bus.idle();
    // The refused request's Idempotency-Key was released: the retry runs.
    const retried = await postSigned({ baseUrl, secret, body: { chatId: 'bus-3', text: 'three' }, headers: { 'idempotency-key': 'third' }, query: '?wait=true' });
    expect(retried).toMatchObject({ status: 200, body: { reply: 'fast again' } });
    expect((await getPath(baseUrl, '/healthz')).status).toBe(200);
  });

  it('answers 202 when a wait runs out, then sends the reply to the callback URL', async () => {
    const { baseUrl } = await startWith('channels:\n  webhook:\n    waitTimeoutMs: 100\n');
    const receiver = await createCallbackReceiver();
    try {
      const gate = createGate();
      model.enqueue(async () => {
        await gate.opened;
        return { text: 'worth the wait' };
      });
      const answer = await postSigned({ baseUrl, secret, body: { chatId: 'patient', text: 'take your time', callbackUrl: receiver.url }, query: '?wait=true' });
      expect(answer.status).toBe(202);
      expect(receiver.received).toHaveLength(0);
      gate.open();
      const runId = (answer.body as { runId: string }).runId;
      const callback = await waitFor(() => receiver.received[0], 'the callback');
      expect(JSON.parse(callback.body)).toMatchObject({ runId, text: 'worth the wait' });
    } finally {
      await receiver.close();
    }
  });

  it('keeps /v1/messages off without a secret, and says so at start-up', async () => {
    const test = await startTestApp({ environment: { OPENAI_BASE_URL: model.url, GATEWAY_PORT: '0' } });
    running.push(test);
    expect(test.app.startupLines).toContain('webhook: off (/v1/messages is not served: WEBHOOK_SECRET is not set)');
    expect(test.app.startupLines).toContain('gateway: 127.0.0.1:0 (/healthz, /metrics)');
    const { baseUrl } = gatewayOf(test.app);
    const answer = await postSigned({ baseUrl, secret, body: { chatId: 'x', text: 'y' } });
    expect(answer.status).toBe(404);
    expect((await getPath(baseUrl, '/healthz')).status).toBe(200);
  });
});
