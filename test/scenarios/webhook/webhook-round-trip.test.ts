import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedModelServer, type ScriptedModelServer } from '../../fakes/scripted-model-server.js';
import { startTestApp, type TestApp, waitFor } from '../../fakes/start-test-app.js';
import { createCallbackReceiver, createGate, gatewayOf, getPath, postSigned, signForTest } from '../../fakes/webhook-client.js';
import { cronOf } from '../cron/cron-test-helpers.js';

const secret = 'test-webhook-secret';
let model: ScriptedModelServer;
let test: TestApp;
let baseUrl: string;

beforeAll(async () => {
  model = await createScriptedModelServer();
  test = await startTestApp({ environment: { OPENAI_BASE_URL: model.url, WEBHOOK_SECRET: secret, GATEWAY_PORT: '0' } });
  const gateway = gatewayOf(test.app);
  gateway.channel.allowHttpCallbacksForTests();
  baseUrl = gateway.baseUrl;
});
afterAll(async () => {
  await test.stop();
  await model.close();
});
afterEach(() => {
  model.setFallback({});
});

function modelCallsWith(text: string): number {
  return model.requests.filter((request) => request.path === '/v1/chat/completions' && JSON.stringify(request.body?.messages ?? []).includes(text)).length;
}

describe('the webhook gateway over real HTTP', () => {
  it('answers a signed message with the reply when asked to wait, as an unattended webhook turn', async () => {
    model.enqueue({ text: 'pong from the model' });
    // Trust flags in the body are ignored: only the gateway sets origin and unattended.
    const answer = await postSigned({ baseUrl, secret, body: { chatId: 'orders', senderId: 'erp', text: 'ping', origin: 'user', unattended: false }, query: '?wait=true' });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ reply: 'pong from the model', runId: expect.any(String) });
    const system = JSON.stringify(model.requests.at(-1)?.body?.messages?.[0]);
    expect(system).toContain('started by another system through the HTTP API');
  });

  it('answers 202 with a run id at once without ?wait', async () => {
    model.setFallback({ text: 'later', delayMs: 300 });
    const answer = await postSigned({ baseUrl, secret, body: { chatId: 'no-wait', text: 'do it later' } });
    expect(answer.status).toBe(202);
    expect(Object.keys(answer.body as object)).toEqual(['runId']);
    await test.app.bus.idle();
  });

  it('replays an Idempotency-Key without calling the model again, and refuses the key with another body', async () => {
    model.enqueue({ text: 'charged once' });
    const body = { chatId: 'payments', text: 'charge order 42' };
    const headers = { 'idempotency-key': 'order-42-charge' };
    const first = await postSigned({ baseUrl, secret, body, headers, query: '?wait=true' });
    expect(first.status).toBe(200);
    // Signed again later (new timestamp, same body): the first answer, replayed.
    const replay = await postSigned({ baseUrl, secret, body, headers, query: '?wait=true', timestamp: Math.floor(Date.now() / 1000) + 1 });
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(modelCallsWith('charge order 42')).toBe(1);

    const other = await postSigned({ baseUrl, secret, body: { ...body, text: 'charge order 43' }, headers });
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({ error: { code: 'idempotency-key-reused' } });
    expect(modelCallsWith('charge order 43')).toBe(0);
  });

  it('answers a replay that arrives while the first is still running with the same run, and runs once', async () => {
    const gate = createGate();
    model.enqueue(async () => {
      await gate.opened;
      return { text: 'slow and single' };
    });
    const body = { chatId: 'slow', text: 'the slow one' };
    const headers = { 'idempotency-key': 'slow-1' };
    const firstPromise = postSigned({ baseUrl, secret, body, headers, query: '?wait=true' });
    await waitFor(() => modelCallsWith('the slow one') === 1, 'the first run reaching the model');
    const during = await postSigned({ baseUrl, secret, body, headers });
    const waitingReplay = postSigned({ baseUrl, secret, body, headers, query: '?wait=true' });
    gate.open();
    const first = await firstPromise;
    expect(first).toMatchObject({ status: 200, body: { reply: 'slow and single' } });
    const runId = (first.body as { runId: string }).runId;
    expect(during).toMatchObject({ status: 202, body: { runId } });
    expect(await waitingReplay).toMatchObject({ status: 200, body: { runId, reply: 'slow and single' } });
    expect(modelCallsWith('the slow one')).toBe(1);
  });

  it('POSTs the reply to the callback URL, signed like inbound requests', async () => {
    const receiver = await createCallbackReceiver({ statuses: [503] });
    try {
      model.enqueue({ text: 'your report is ready' });
      const answer = await postSigned({ baseUrl, secret, body: { chatId: 'reports', text: 'make the report', callbackUrl: receiver.url } });
      expect(answer.status).toBe(202);
      const runId = (answer.body as { runId: string }).runId;
      // The first attempt is answered 503: the callback is retried.
      const callback = await waitFor(() => receiver.received[1], 'the retried callback');
      expect(receiver.received).toHaveLength(2);
      const timestamp = String(callback.headers['x-echo-timestamp']);
      expect(callback.headers['x-echo-signature']).toBe(signForTest(secret, timestamp, callback.body));
      expect(JSON.parse(callback.body)).toMatchObject({ type: 'reply', kind: 'final', runId, chatId: 'reports', text: 'your report is ready' });
    } finally {
      await receiver.close();
    }
  });

  it('fails closed on a tool that needs approval: nobody watches a webhook turn', async () => {
    model.enqueue({ toolCalls: [{ name: 'schedule_task', arguments: { schedule: '0 9 * * *', prompt: 'spam everyone' } }] }, (body) => ({
      text: `done: ${String(body.messages?.at(-1)?.content)}`,
    }));
    const answer = await postSigned({ baseUrl, secret, body: { chatId: 'risky', text: 'schedule something' }, query: '?wait=true' });
    expect(answer.status).toBe(200);
    expect((answer.body as { reply: string }).reply).toContain('needs a person');
    expect(await cronOf(test.app).scheduler.list()).toEqual([]);
  });

  it("delivers a scheduled job's answer for a webhook chat to that chat's callback URL", async () => {
    const receiver = await createCallbackReceiver();
    try {
      model.enqueue({ text: 'registered' });
      await postSigned({ baseUrl, secret, body: { chatId: 'digest', text: 'hello', callbackUrl: receiver.url }, query: '?wait=true' });
      const created = await cronOf(test.app).scheduler.create({ schedule: '0 0 1 1 *', prompt: 'daily digest', target: { channel: 'webhook', chatId: 'digest' }, createdBy: 'ops' });
      if (!created.ok) throw new Error(created.error);
      model.enqueue({ text: 'here is the digest' });
      const fired = await cronOf(test.app).runNow(created.job.id);
      if (!fired.ok) throw new Error(fired.error);
      const callback = await waitFor(() => receiver.received.find((entry) => entry.body.includes('here is the digest')), 'the scheduled answer at the callback');
      expect(JSON.parse(callback.body)).toMatchObject({ type: 'reply', chatId: 'digest', runId: fired.eventId, kind: 'final' });
      const job = await waitFor(async () => (await cronOf(test.app).jobs()).find((candidate) => candidate.id === created.job.id && candidate.lastRun?.status === 'succeeded'), 'the recorded run');
      expect(job.lastRun).toMatchObject({ delivered: true });
    } finally {
      await receiver.close();
    }
  });

  it('serves /healthz with every channel and the bus, and /metrics in Prometheus text', async () => {
    const health = await getPath(baseUrl, '/healthz');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: 'ok', channels: { webhook: { state: 'running' }, cron: { state: 'running' } }, bus: { queued: 0 } });

    const metrics = await getPath(baseUrl, '/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-type')).toContain('text/plain');
    expect(metrics.text).toMatch(/echo_turns_total\{status="completed"\} [1-9]/);
    expect(metrics.text).toContain('echo_queue_depth 0');
    expect(metrics.text).toMatch(/echo_turn_duration_seconds_bucket\{le="\+Inf",channel="webhook",type="message-received",failed="false"\} [1-9]/);
    expect(metrics.text).toMatch(/echo_gateway_requests_total\{route="\/v1\/messages",status="401"\}|echo_gateway_requests_total\{route="\/v1\/messages",status="202"\}/);
  });
});
