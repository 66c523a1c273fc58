import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedModelServer, type ScriptedModelServer } from '../fakes/scripted-model-server.js';
import { startTestApp, type TestApp } from '../fakes/start-test-app.js';
import { gatewayOf, getPath, postSigned, signForTest, signRequestForTest } from '../fakes/webhook-client.js';

const secret = 'security-webhook-secret';
let model: ScriptedModelServer;
let testApp: TestApp | undefined;

beforeAll(async () => {
  model = await createScriptedModelServer();
});
afterAll(async () => {
  await model.close();
});
afterEach(async () => {
  await testApp?.stop();
  testApp = undefined;
});

function modelCallsWith(text: string): number {
  return model.requests.filter((request) => request.path === '/v1/chat/completions' && JSON.stringify(request.body?.messages ?? []).includes(text)).length;
}

async function start(environment: Record<string, string> = {}, dataDir?: string): Promise<{ app: TestApp; baseUrl: string }> {
  testApp = await startTestApp({ environment: { OPENAI_BASE_URL: model.url, WEBHOOK_SECRET: secret, ...environment }, dataDir });
  return { app: testApp, baseUrl: gatewayOf(testApp.app).baseUrl };
}

/** A raw request, byte for byte as it was captured on the wire. */
async function sendRaw(baseUrl: string, request: { readonly body: string; readonly headers: Readonly<Record<string, string>> }): Promise<number> {
  const response = await fetch(`${baseUrl}/v1/messages?wait=true`, { method: 'POST', headers: { 'content-type': 'application/json', ...request.headers }, body: request.body });
  await response.text();
  return response.status;
}

describe('finding 1: a signed request cannot be replayed', () => {
  it('refuses the byte-identical request a second time, also after a restart', async () => {
    const { app, baseUrl } = await start();
    const body = JSON.stringify({ chatId: 'replay', text: 'transfer the report once' });
    const timestamp = String(Math.floor(Date.now() / 1000));
    const captured = { body, headers: { 'x-echo-timestamp': timestamp, 'x-echo-signature': signRequestForTest(secret, timestamp, body) } };
    expect(await sendRaw(baseUrl, captured)).toBe(200);
    expect(await sendRaw(baseUrl, captured)).toBe(409);
    const dataDir = app.dataDir;
    await app.stop({ keepData: true });
    testApp = undefined;
    const restarted = await start({}, dataDir);
    expect(await sendRaw(restarted.baseUrl, captured)).toBe(409);
    expect(modelCallsWith('transfer the report once')).toBe(1);
  });

  it('binds Idempotency-Key into the signature: the captured request under another key, or none, does not run', async () => {
    const { baseUrl } = await start();
    const body = JSON.stringify({ chatId: 'replay-key', text: 'pay invoice 77' });
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signature = signRequestForTest(secret, timestamp, body, 'invoice-77');
    expect(await sendRaw(baseUrl, { body, headers: { 'x-echo-timestamp': timestamp, 'x-echo-signature': signature, 'idempotency-key': 'invoice-77' } })).toBe(200);
    // The same bytes with the same key are a retry: answered from the first run, not run again.
    expect(await sendRaw(baseUrl, { body, headers: { 'x-echo-timestamp': timestamp, 'x-echo-signature': signature, 'idempotency-key': 'invoice-77' } })).toBe(200);
    expect(await sendRaw(baseUrl, { body, headers: { 'x-echo-timestamp': timestamp, 'x-echo-signature': signature, 'idempotency-key': 'another-key' } })).not.toBeLessThan(400);
    expect(await sendRaw(baseUrl, { body, headers: { 'x-echo-timestamp': timestamp, 'x-echo-signature': signature } })).not.toBeLessThan(400);
    expect(modelCallsWith('pay invoice 77')).toBe(1);
  });

  it('refuses the old signing string timestamp.body unless webhook.legacySignature is on', async () => {
    const { baseUrl } = await start();
    const body = JSON.stringify({ chatId: 'legacy', text: 'old client' });
    const timestamp = String(Math.floor(Date.now() / 1000));
    expect(await sendRaw(baseUrl, { body, headers: { 'x-echo-timestamp': timestamp, 'x-echo-signature': signForTest(secret, timestamp, body) } })).toBe(401);
    await testApp?.stop();
    const migrating = await start({ WEBHOOK_LEGACY_SIGNATURE: 'true' });
    expect(await sendRaw(migrating.baseUrl, { body, headers: { 'x-echo-timestamp': timestamp, 'x-echo-signature': signForTest(secret, timestamp, body) } })).toBe(200);
  });
});

/** A TCP listener on loopback that counts every connection: a TLS client has to connect before anything else. */
async function startTrap(): Promise<{ port: number; connections: () => number; close: () => Promise<void> }> {
  let connections = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.destroy();
  });
  // Both families: localhost may resolve to ::1, and ::ffff:127.0.0.1 reaches an IPv4 listener.
  await new Promise<void>((resolve) => server.listen({ port: 0, host: '::', ipv6Only: false }, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => connections,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('finding 2: callbackUrl follows the network policy', () => {
  it.each(['127.0.0.1', 'localhost', '2130706433', '[::ffff:127.0.0.1]'])('refuses https://%s and never connects to it', async (host) => {
    const trap = await startTrap();
    try {
      const { app, baseUrl } = await start();
      const answer = await postSigned({ baseUrl, secret, body: { chatId: `ssrf-${host}`, text: 'report back', callbackUrl: `https://${host}:${trap.port}/hook` } });
      await app.app.bus.idle();
      expect(answer.status).toBe(422);
      expect(trap.connections()).toBe(0);
    } finally {
      await trap.close();
    }
  });

  it('refuses a loopback callback URL remembered for a chat when output is delivered later', async () => {
    const trap = await startTrap();
    try {
      const { app } = await start();
      await app.app.store.namespace<string>('webhook-callbacks').set('old-chat', `https://127.0.0.1:${trap.port}/hook`);
      const webhook = gatewayOf(app.app).channel;
      const delivery = await webhook.send({ type: 'reply', target: { channel: 'webhook', chatId: 'old-chat' }, text: 'scheduled output', kind: 'final', causationId: 'schedule-run' });
      expect(delivery).toMatchObject({ ok: false, retryable: false });
      expect(trap.connections()).toBe(0);
    } finally {
      await trap.close();
    }
  });
});

describe('finding 8: a global rate limit besides the per-sender one', () => {
  it('answers 429 to rotating sender ids once the gateway-wide budget is spent', async () => {
    // 5 a minute for the whole gateway (one more every 12 s); each sender alone may send 60.
    const { app, baseUrl } = await start({ WEBHOOK_GLOBAL_RATE_PER_MINUTE: '5' });
    const statuses: number[] = [];
    for (let index = 0; index < 70; index += 1) {
      statuses.push((await postSigned({ baseUrl, secret, body: { chatId: `rotate-${index}`, senderId: `sender-${index}`, text: `message ${index}` } })).status);
    }
    await app.app.bus.idle();
    expect(statuses.slice(0, 5)).toEqual([202, 202, 202, 202, 202]);
    expect(statuses.filter((status) => status === 202).length).toBeLessThan(10);
    expect(statuses.at(-1)).toBe(429);
  });
});

describe('finding 10: /metrics and the detailed /healthz can be kept private', () => {
  it('asks for the bearer token on /metrics and says only ok on /healthz without it', async () => {
    const { baseUrl } = await start({ GATEWAY_METRICS_TOKEN: 'metrics-token-123' });
    expect((await getPath(baseUrl, '/metrics')).status).toBe(401);
    expect((await getPath(baseUrl, '/healthz')).body).toEqual({ status: 'ok' });
    const metrics = await fetch(`${baseUrl}/metrics`, { headers: { authorization: 'Bearer metrics-token-123' } });
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain('echo_turns_total');
    const health = await fetch(`${baseUrl}/healthz`, { headers: { authorization: 'Bearer metrics-token-123' } });
    expect(await health.json()).toMatchObject({ status: 'ok', channels: expect.any(Object) });
  });
});
