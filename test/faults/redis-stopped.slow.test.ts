// Fault: the Redis server behind the real agent's store (storage.url redis://..., operationTimeoutMs 1000) is
// killed mid-run; a real redis-server started by this test on a free port, without persistence.
// Proves: a signed `POST /v1/messages?wait=true` answers with a clear error (503 store-unavailable) instead of
// hanging, and `GET /healthz` says `degraded` with the store's state. The wait is bounded by the client's own
// timeout (a hang fails the test); no duration is asserted.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { connect } from 'node:net';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../fakes/run-compiled.js';
import { waitFor } from '../fakes/start-test-app.js';
import { findFreePort } from '../fakes/telegram-emulator.js';
import { signRequestForTest } from '../fakes/webhook-client.js';
import { type AgentUnderFault, createAgentUnderFault, patientMs } from './agent-under-fault.js';

const secret = 'fault-webhook-secret-0123456789';

function hasRedisServer(): boolean {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const redisMissing = !hasRedisServer();
if (redisMissing) process.stderr.write('redis-stopped.slow.test.ts skipped: redis-server is not installed (apt-get install -y redis-server)\n');

/** A signed POST with a client-side deadline: an agent that never answers fails the test instead of hanging it. */
async function post(baseUrl: string, text: string): Promise<{ readonly status: number; readonly body: { readonly error?: { readonly code?: string }; readonly reply?: string; readonly runId?: string } }> {
  const body = JSON.stringify({ chatId: 'fault-chat', text });
  const timestamp = String(Math.floor(Date.now() / 1000));
  const response = await fetch(`${baseUrl}/v1/messages?wait=true`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-echo-timestamp': timestamp, 'x-echo-signature': signRequestForTest(secret, timestamp, body) },
    body,
    signal: AbortSignal.timeout(30_000),
  });
  return { status: response.status, body: (await response.json()) as { error?: { code?: string }; reply?: string; runId?: string } };
}

/** Whether something accepts connections on the port. */
function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe.skipIf(redisMissing)('Redis stopped under a running agent', () => {
  let world: AgentUnderFault | undefined;
  let redis: ChildProcess | undefined;
  beforeAll(() => ensureBuilt(), 120_000);

  /** A redis-server of this test's own, without persistence, listening on 127.0.0.1:port. */
  async function startRedis(port: number): Promise<ChildProcess> {
    const server = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    redis = server;
    await waitFor(() => isListening(port), 'redis-server to listen', patientMs);
    return server;
  }

  async function stopRedis(server: ChildProcess): Promise<void> {
    if (server.exitCode !== null || server.signalCode !== null) return;
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGKILL');
    await exited;
  }

  afterEach(async () => {
    if (redis) await stopRedis(redis);
    redis = undefined;
    await world?.close();
    world = undefined;
  });

  it('answers a waiting webhook request with 503 store-unavailable and reports /healthz degraded', async () => {
    const port = await findFreePort();
    let server = await startRedis(port);

    world = await createAgentUnderFault({
      yaml: 'storage:\n  operationTimeoutMs: 1000\n',
      environment: { ECHO_STORAGE_URL: `redis://127.0.0.1:${port}`, WEBHOOK_SECRET: secret, TELEGRAM_BOT_TOKEN: '' },
    });
    const current = world;
    current.model.setFallback((_body, context) => ({ text: `echo: ${context.lastUserText}` }));
    await current.start();
    const baseUrl = `http://127.0.0.1:${current.webhookPort}`;

    const before = await post(baseUrl, 'while redis runs');
    expect(before).toMatchObject({ status: 200, body: { reply: 'echo: while redis runs' } });
    const healthyBefore = (await (await fetch(`${baseUrl}/healthz`)).json()) as { status: string };
    expect(healthyBefore.status).toBe('ok');

    await stopRedis(server);

    const during = await post(baseUrl, 'after redis died');
    expect(during.status).toBe(503);
    expect(during.body.error?.code).toBe('store-unavailable');
    const health = await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(30_000) });
    const report = (await health.json()) as { status: string; store: { state: string; errors: number; lastError?: string } };
    expect(report.status).toBe('degraded');
    expect(report.store.state).toBe('degraded');
    expect(report.store.errors).toBeGreaterThan(0);
    expect(report.store.lastError).toMatch(/redis/);
    expect(current.modelRequests().filter((request) => request.body?.messages?.at(-1)?.content === 'after redis died')).toHaveLength(0);

    // Back again (empty: it kept nothing): the next request is answered and the store counts as ok.
    server = await startRedis(port);
    const after = await waitFor(async () => {
      const answer = await post(baseUrl, 'redis is back');
      return answer.status === 200 ? answer : undefined;
    }, 'a request to succeed once redis is back', patientMs);
    expect(after.body.reply).toBe('echo: redis is back');
    const recovered = (await (await fetch(`${baseUrl}/healthz`)).json()) as { status: string };
    expect(recovered.status).toBe('ok');
  }, 90_000);

  it('answers 503 store-unavailable, with the sentence as reply, when Redis dies during the turn it accepted', async () => {
    const port = await findFreePort();
    const server = await startRedis(port);
    world = await createAgentUnderFault({
      yaml: 'storage:\n  operationTimeoutMs: 1000\n',
      environment: { ECHO_STORAGE_URL: `redis://127.0.0.1:${port}`, WEBHOOK_SECRET: secret, TELEGRAM_BOT_TOKEN: '' },
    });
    const current = world;
    // The model answers once the test has killed Redis: the turn then cannot store what it added.
    let redisGone: () => void = () => undefined;
    const killed = new Promise<void>((resolve) => {
      redisGone = resolve;
    });
    current.model.setFallback(async (_body, context) => {
      if (context.lastUserText === 'answer after redis dies') await killed;
      return { text: `echo: ${context.lastUserText}` };
    });
    await current.start();
    const baseUrl = `http://127.0.0.1:${current.webhookPort}`;

    const answer = post(baseUrl, 'answer after redis dies');
    await waitFor(() => (current.modelRequests().some((request) => request.body?.messages?.at(-1)?.content === 'answer after redis dies') ? true : undefined), 'the turn to reach the model', patientMs);
    await stopRedis(server);
    redisGone();

    const during = await answer;
    expect(during.status).toBe(503);
    expect(during.body).toMatchObject({
      error: { code: 'store-unavailable' },
      runId: expect.any(String),
      reply: 'I could not save this conversation: my storage is not answering. Your message is kept, and I will answer it once the storage is back.',
    });
  }, 90_000);
});
